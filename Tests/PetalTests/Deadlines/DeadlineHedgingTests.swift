import Petal
import Testing

/// Hedging under a request's deadline: refused once it has passed, and no copy at or after it.
@Suite("Deadlines: hedging")
struct DeadlineHedgingTests {
    @Test("a hedged call asked for after the deadline is refused before its body runs, and the budget counts nothing")
    func refusedWhenPassed() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .zero, clock: clock)
        let budget = RetryBudget(share: 1, burst: 4)
        let copies = Copies()
        let call = Deadline.withValue(deadline) {
            Future.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget), clock: clock) {
                copies.start()
            }
        }
        #expect(copies.count == 0)
        #expect(isExceeded(call, by: deadline))
        #expect(clock.pendingDeadlineCount == 0)
        #expect(budget.extraCallsSent == 0)
    }

    @Test("no copy is timed or started at or after the deadline, and none takes a token")
    func noCopyAtDeadline() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 1, burst: 10)
        let copies = Copies()
        // Copies due at 0, 5, 10 and 15 ms; the deadline at 10 ms leaves two.
        let call = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            Future.hedging(HedgingPolicy(copies: 4, delay: .milliseconds(5), budget: budget), clock: clock) {
                copies.start()
            }
        }
        clock.advance(by: .milliseconds(5))
        #expect(copies.count == 2)
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .seconds(1))
        #expect(copies.count == 2)
        #expect(budget.extraCallsSent == 1)
        _ = copies[1].fulfil(with: 2)
        #expect(call.peek()?.value == 2)
        copies.cancelPending()
    }

    @Test("a retryable rejection after the deadline starts no copy: the call is rejected with it")
    func rejectionAfterDeadline() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 1, burst: 10)
        let copies = Copies()
        let call = Deadline.withValue(Deadline(after: .milliseconds(3), clock: clock)) {
            Future.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget), clock: clock) {
                copies.start()
            }
        }
        clock.advance(by: .milliseconds(4))
        _ = copies[0].reject(with: TestError(1))
        #expect(copies.count == 1)
        #expect(call.peek()?.error as? TestError == TestError(1))
        #expect(budget.extraCallsSent == 0)
    }

    @Test("a copy started from the timer runs with the deadline bound where the call was made")
    func carriedIntoTimerCopy() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let copies = Copies()
        let seen = Recorder<ContinuousClock.Instant?>()
        let call = Deadline.withValue(deadline) {
            Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) {
                seen.record(Deadline.current?.instant)
                return copies.start()
            }
        }
        #expect(Deadline.current == nil)
        clock.advance(by: .milliseconds(5))
        #expect(seen.events == [deadline.instant, deadline.instant])
        _ = copies[1].fulfil(with: 1)
        #expect(call.peek()?.value == 1)
        copies.cancelPending()
    }

    @Test("a deadline of another clock neither refuses the call nor stops its copies")
    func otherClockIgnored() {
        let requestClock = DeadlineClock.manual()
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let call = Deadline.withValue(Deadline(after: .milliseconds(-1), clock: requestClock)) {
            Future.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5)), clock: clock) { copies.start() }
        }
        clock.advance(by: .milliseconds(10))
        #expect(copies.count == 3)
        _ = copies[2].fulfil(with: 3)
        #expect(call.peek()?.value == 3)
        copies.cancelPending()
    }
}
