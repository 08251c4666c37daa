import Petal
import Testing

/// A timeout ends by the earlier of its own deadline and the request's, when the request's is
/// kept by the timeout's clock.
@Suite("Deadlines: timeouts")
struct DeadlineTimeoutTests {
    @Test("a request's deadline before the timeout's ends it, with the deadline's exceededError")
    func requestDeadlineFirst() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let call = Promise<Int>()
        let guarded = Deadline.withValue(deadline) { call.future.timeout(after: .seconds(1), clock: clock) }
        clock.advance(by: .milliseconds(19))
        #expect(guarded.peek() == nil)
        clock.advance(by: .milliseconds(1))
        #expect(isExceeded(guarded, by: deadline))
        #expect(clock.pendingDeadlineCount == 0)
        call.fulfil(with: 1)
    }

    @Test("a timeout shorter than the request's deadline keeps its own deadline and duration")
    func ownDeadlineFirst() {
        let clock = DeadlineClock.manual()
        let call = Promise<Int>()
        let guarded = Deadline.withValue(Deadline(after: .milliseconds(20), clock: clock)) {
            call.future.timeout(after: .milliseconds(5), clock: clock)
        }
        clock.advance(by: .milliseconds(5))
        #expect(timeoutError(guarded)?.duration == .milliseconds(5))
        call.fulfil(with: 1)
    }

    @Test("timeout(at:) ends by an earlier request deadline, and one answered in time follows its receiver")
    func timeoutAt() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(10), clock: clock)
        let late = Promise<Int>()
        let early = Promise<Int>()
        let (lateGuarded, earlyGuarded) = Deadline.withValue(deadline) {
            (
                late.future.timeout(at: clock.now.advanced(by: .seconds(1)), clock: clock),
                early.future.timeout(at: clock.now.advanced(by: .seconds(1)), clock: clock)
            )
        }
        clock.advance(by: .milliseconds(9))
        early.fulfil(with: 7)
        clock.advance(by: .milliseconds(1))
        #expect(isExceeded(lateGuarded, by: deadline))
        #expect(earlyGuarded.peek()?.value == 7)
        late.fulfil(with: 1)
    }

    @Test("a deadline already passed rejects a pending receiver's timeout at once")
    func alreadyPassed() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(-1), clock: clock)
        let call = Promise<Int>()
        let guarded = Deadline.withValue(deadline) { call.future.timeout(after: .seconds(1), clock: clock) }
        #expect(isExceeded(guarded, by: deadline))
        #expect(clock.pendingDeadlineCount == 0)
        call.fulfil(with: 1)
    }

    @Test("a deadline of another clock is ignored")
    func otherClockIgnored() {
        let requestClock = DeadlineClock.manual()
        let clock = DeadlineClock.manual()
        let call = Promise<Int>()
        let guarded = Deadline.withValue(Deadline(after: .milliseconds(1), clock: requestClock)) {
            call.future.timeout(after: .seconds(1), clock: clock)
        }
        requestClock.advance(by: .seconds(3_600))
        #expect(guarded.peek() == nil)
        clock.advance(by: .seconds(1))
        #expect(timeoutError(guarded)?.duration == .seconds(1))
        call.fulfil(with: 1)
    }

    @Test("a timeout made in a step that runs outside the binding ends by the deadline it carried")
    func carriedIntoStep() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let head = Promise<Int>()
        let call = Promise<Int>()
        let made = Slot<Future<Int>?>(nil)
        Deadline.withValue(deadline) {
            _ = head.future.then { value -> Int in
                made.value = call.future.timeout(after: .seconds(1), clock: clock)
                return value
            }
        }
        head.fulfil(with: 1)
        clock.advance(by: .milliseconds(20))
        #expect(made.value.map { isExceeded($0, by: deadline) } == true)
        call.fulfil(with: 1)
    }

    @Test("nested deadlines: the inner one shortens the timeout, a later inner one does not extend it")
    func nested() {
        let clock = DeadlineClock.manual()
        let outer = Deadline(after: .milliseconds(20), clock: clock)
        let inner = Deadline(after: .milliseconds(10), clock: clock)
        let later = Deadline(after: .milliseconds(50), clock: clock)
        let first = Promise<Int>()
        let second = Promise<Int>()
        let (shortened, kept) = Deadline.withValue(outer) {
            (
                Deadline.withValue(inner) { first.future.timeout(after: .seconds(1), clock: clock) },
                Deadline.withValue(later) { second.future.timeout(after: .seconds(1), clock: clock) }
            )
        }
        clock.advance(by: .milliseconds(10))
        #expect(isExceeded(shortened, by: inner))
        #expect(kept.peek() == nil)
        clock.advance(by: .milliseconds(10))
        #expect(isExceeded(kept, by: outer))
        first.fulfil(with: 1)
        second.fulfil(with: 1)
    }

    @Test("withoutValue lets a timeout run past the request's deadline")
    func withoutValue() {
        let clock = DeadlineClock.manual()
        let call = Promise<Int>()
        let guarded = Deadline.withValue(Deadline(after: .milliseconds(5), clock: clock)) {
            Deadline.withoutValue { call.future.timeout(after: .seconds(1), clock: clock) }
        }
        clock.advance(by: .milliseconds(500))
        #expect(guarded.peek() == nil)
        clock.advance(by: .milliseconds(500))
        #expect(timeoutError(guarded)?.duration == .seconds(1))
        call.fulfil(with: 1)
    }
}
