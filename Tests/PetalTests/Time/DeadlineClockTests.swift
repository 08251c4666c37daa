import Petal
import Testing

/// A manual clock: deadlines pass exactly when a test says so, on the test's thread. None of
/// these tests waits for real time; each has a clock of its own, so they run in parallel.
@Suite("Time: the manual clock")
struct DeadlineClockTests {
    @Test("a timeout on a manual clock fires exactly at its deadline, on the advancing thread")
    func timeoutFiresAtItsDeadline() {
        let clock = DeadlineClock.manual()
        let start = clock.now
        let promise = Promise<Int>()
        let timed = promise.future.timeout(after: .seconds(3600), clock: clock)
        let fired = Counter()
        timed.whenRejected { _ in fired.increment() }
        #expect(clock.pendingDeadlineCount == 1)
        clock.advance(by: .seconds(3600) - .nanoseconds(1))
        #expect(timed.peek() == nil)
        clock.advance(by: .nanoseconds(1))
        // Inline: the advance ran the deadline and the callback before returning.
        #expect(fired.value == 1)
        #expect(timedOut(timed.peek())?.deadline == start + .seconds(3600))
        #expect(timedOut(timed.peek())?.duration == .seconds(3600))
        #expect(clock.pendingDeadlineCount == 0)
        #expect(clock.now == start + .seconds(3600))
        // The receiver is untouched and may still resolve; the timeout's answer stands.
        #expect(promise.fulfil(with: 1))
        #expect(timedOut(timed.peek()) != nil)
    }

    @Test("the deadline form measures its instant on the clock it is given")
    func deadlineForm() {
        let clock = DeadlineClock.manual()
        let promise = Promise<Int>()
        let deadline = clock.now + .milliseconds(5)
        let timed = promise.future.timeout(at: deadline, clock: clock)
        clock.advance(to: deadline)
        #expect(timedOut(timed.peek())?.deadline == deadline)
        #expect(timedOut(timed.peek())?.duration == nil)
        // Already past on this clock: answered at once, without a deadline.
        let late = promise.future.timeout(at: deadline, clock: clock)
        #expect(timedOut(late.peek()) != nil)
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a receiver resolved in time takes its deadline off the clock")
    func resolvedInTime() {
        let clock = DeadlineClock.manual()
        let promise = Promise<String>()
        let timed = promise.future.timeout(after: .seconds(1), clock: clock)
        promise.fulfil(with: "done")
        #expect(timed.peek()?.value == "done")
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .seconds(2))
        #expect(timed.peek()?.value == "done")
    }

    @Test("an advance runs what is due earliest first, each at its own deadline, and what they schedule in the window")
    func advanceOrder() {
        let clock = DeadlineClock.manual()
        let start = clock.now
        let seen = Recorder<(Int, Duration)>()
        let promises = (0..<4).map { _ in Promise<Int>() }
        for (index, delay) in [30, 10, 20].enumerated() {
            promises[index].future.timeout(after: .milliseconds(delay), clock: clock).whenRejected { _ in
                seen.record((index, start.duration(to: clock.now)))
                if index == 1 {
                    // Falls due at 15 ms, inside this advance: it runs in it, in its place.
                    promises[3].future.timeout(after: .milliseconds(5), clock: clock).whenRejected { _ in
                        seen.record((3, start.duration(to: clock.now)))
                    }
                }
            }
        }
        clock.advance(by: .milliseconds(25))
        #expect(seen.events.map(\.0) == [1, 3, 2])
        #expect(seen.events.map(\.1) == [.milliseconds(10), .milliseconds(15), .milliseconds(20)])
        #expect(clock.now == start + .milliseconds(25))
        #expect(clock.pendingDeadlineCount == 1)
        // Backwards moves nothing.
        clock.advance(to: start)
        clock.advance(by: .seconds(-1))
        #expect(clock.now == start + .milliseconds(25))
        clock.advance(by: .milliseconds(5))
        #expect(seen.events.map(\.0) == [1, 3, 2, 0])
        withExtendedLifetime(promises) {}
    }

    @Test("the continuous clock is real time and is not manual")
    func continuousClock() {
        let before = ContinuousClock.now
        #expect(!DeadlineClock.continuous.isManual)
        #expect(DeadlineClock.continuous.now >= before)
        #expect(DeadlineClock.manual().isManual)
    }

    // MARK: Retrying on a manual clock

    @Test("backoff: each attempt starts exactly when its wait is over, and not before")
    func backoffTimes() {
        let clock = DeadlineClock.manual()
        let start = clock.now
        let startedAt = Recorder<Duration>()
        let policy = RetryPolicy.exponential(
            attempts: 4, initialDelay: .milliseconds(100), maximumDelay: .milliseconds(250), jitter: 0)
        let future = Future<Int>.retrying(policy, clock: clock) {
            startedAt.record(start.duration(to: clock.now))
            return .rejected(with: TestError(startedAt.events.count))
        }
        #expect(startedAt.events == [.zero])
        clock.advance(by: .milliseconds(99))
        #expect(startedAt.events.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(startedAt.events == [.zero, .milliseconds(100)])
        clock.advance(by: .seconds(10))
        // 100, then 200, then the cap of 250.
        #expect(startedAt.events == [.zero, .milliseconds(100), .milliseconds(300), .milliseconds(550)])
        #expect(describe(future.peek()) == "rejected(\(TestError(4)))")
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("jitter: every wait lies between its share below the full wait and the full wait", arguments: 0..<20)
    func jitterBounds(round: Int) {
        let clock = DeadlineClock.manual()
        let startedAt = Recorder<ContinuousClock.Instant>()
        let policy = RetryPolicy.exponential(
            attempts: 5, initialDelay: .milliseconds(100), maximumDelay: .seconds(10), jitter: 0.5)
        let future = Future<Int>.retrying(policy, clock: clock) {
            startedAt.record(clock.now)
            return .rejected(with: TestError(round))
        }
        clock.advance(by: .seconds(60))
        #expect(future.peek()?.isRejected == true)
        let waits = zip(startedAt.events, startedAt.events.dropFirst()).map { $0.duration(to: $1) }
        let full: [Duration] = [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800)]
        #expect(waits.count == full.count)
        for (wait, whole) in zip(waits, full) {
            #expect(wait >= whole / 2 && wait <= whole)
        }
    }

    @Test("a request during a wait stops the retrying and takes the wait off the clock")
    func requestDuringAWait() {
        let clock = DeadlineClock.manual()
        let runs = Counter()
        let future = Future<Int>.retrying(attempts: 5, delay: .seconds(1), clock: clock) {
            runs.increment()
            return .rejected(with: TestError(1))
        }
        #expect(clock.pendingDeadlineCount == 1)
        future.requestCancellation()
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .seconds(10))
        #expect(runs.value == 1)
    }

    @Test("a fixed delay is kept between every two attempts")
    func fixedDelay() {
        let clock = DeadlineClock.manual()
        let runs = Counter()
        let future = Future<Int>.retrying(attempts: 3, delay: .milliseconds(1), clock: clock) {
            runs.increment()
            return .rejected(with: TestError(runs.value))
        }
        clock.advance(by: .microseconds(999))
        #expect(runs.value == 1)
        clock.advance(by: .milliseconds(1))
        #expect(runs.value == 2)
        clock.advance(by: .milliseconds(1))
        #expect(describe(future.peek()) == "rejected(\(TestError(3)))")
    }

    // MARK: A timeout gives up on its receiver

    @Test("a timeout that fires asks its receiver's work to stop, before the timeout's observers run")
    func timeoutAsksItsReceiver() {
        let clock = DeadlineClock.manual()
        let receiver = AskablePromise()
        let timed = receiver.future.timeout(after: .seconds(1), clock: clock)
        let askedFirst = Recorder<Int>()
        timed.whenRejected { _ in askedFirst.record(receiver.asked.value) }
        clock.advance(by: .seconds(1))
        #expect(askedFirst.events == [1])
        // Held past the check: a receiver released any earlier is abandoned, its future cancelled.
        withExtendedLifetime(receiver) {
            #expect(receiver.future.peek() == nil)
        }
    }

    @Test("a request on a timeout's future cancels it at once, takes its deadline off and asks the receiver")
    func requestOnATimeout() {
        let clock = DeadlineClock.manual()
        let receiver = AskablePromise()
        let timed = receiver.future.timeout(after: .seconds(1), clock: clock)
        timed.requestCancellation()
        #expect(describe(timed.peek()) == "cancelled(nil)")
        #expect(clock.pendingDeadlineCount == 0)
        #expect(receiver.asked.value == 1)
        // Through a chain onto the timeout, too.
        let other = AskablePromise()
        let chained = other.future.timeout(after: .seconds(1), clock: clock).then { $0 + 1 }
        chained.requestCancellation()
        #expect(other.asked.value == 1)
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a timed-out receiver that another consumer still wants is not asked")
    func sharedReceiverKeepsRunning() {
        let clock = DeadlineClock.manual()
        let receiver = AskablePromise()
        let consumer = receiver.future.then { $0 * 2 }
        let timed = receiver.future.timeout(after: .seconds(1), clock: clock)
        clock.advance(by: .seconds(1))
        #expect(timedOut(timed.peek()) != nil)
        #expect(receiver.asked.value == 0)
        receiver.promise.fulfil(with: 4)
        #expect(consumer.peek()?.value == 8)
    }

    @Test("cancellingUpstream: false lets the receiver's work run when the timeout fires or is asked")
    func timeoutOptOut() {
        let clock = DeadlineClock.manual()
        let receiver = AskablePromise()
        let fired = receiver.future.timeout(after: .seconds(1), clock: clock, cancellingUpstream: false)
        let asked = receiver.future.timeout(after: .seconds(5), clock: clock, cancellingUpstream: false)
        clock.advance(by: .seconds(1))
        asked.requestCancellation()
        #expect(timedOut(fired.peek()) != nil)
        #expect(asked.peek() == nil)
        #expect(receiver.asked.value == 0)
    }
}
