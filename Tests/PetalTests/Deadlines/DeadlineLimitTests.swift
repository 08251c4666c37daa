import Petal
import Testing

/// A concurrency limit under a request's deadline: refused once it has passed, and a waiting
/// operation leaves the queue at the deadline.
@Suite("Deadlines: concurrency limits")
struct DeadlineLimitTests {
    @Test("an operation asked for after the deadline is refused with exceededError, not as the limit's refusal")
    func refusedWhenPassed() {
        let limit = ConcurrencyLimit(maximum: 4)
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let runs = Counter()
        let operation = Deadline.withValue(deadline) {
            limit.run(counted(runs, returning: 1))
        }
        #expect(runs.value == 0)
        #expect(isExceeded(operation, by: deadline))
        #expect(limit.refusedCount == 0)
        #expect(limit.inFlight == 0)
    }

    @Test("a waiting operation leaves the queue at its deadline, never runs, and frees its place")
    func leavesQueueAtDeadline() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 1, queue: 4)
        let holder = Promise<Int>()
        let running = limit.run { holder.future }
        let deadline = Deadline(after: .milliseconds(10), clock: clock)
        let runs = Counter()
        let waiting = Deadline.withValue(deadline) {
            limit.run(counted(runs, returning: 2))
        }
        #expect(limit.waiting == 1)
        #expect(clock.pendingDeadlineCount == 1)
        clock.advance(by: .milliseconds(9))
        #expect(waiting.peek() == nil)
        clock.advance(by: .milliseconds(1))
        #expect(isExceeded(waiting, by: deadline))
        #expect(limit.waiting == 0)
        holder.fulfil(with: 1)
        #expect(running.peek()?.value == 1)
        #expect(runs.value == 0)
        #expect(limit.inFlight == 0)
        #expect(limit.refusedCount == 0)
    }

    @Test("a waiting operation admitted before its deadline runs once and leaves no timer behind")
    func admittedInTime() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 1, queue: 4)
        let holder = Promise<Int>()
        _ = limit.run { holder.future }
        let runs = Counter()
        let waiting = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            limit.run(counted(runs, returning: 2))
        }
        holder.fulfil(with: 1)
        #expect(runs.value == 1)
        #expect(waiting.peek()?.value == 2)
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .milliseconds(20))
        #expect(runs.value == 1)
        #expect(waiting.peek()?.value == 2)
    }

    @Test("a request on a waiting operation with a deadline takes it and its timer out")
    func requestTakesTimerOut() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 1, queue: 4)
        let holder = Promise<Int>()
        _ = limit.run { holder.future }
        let waiting = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            limit.run { Future<Int>.fulfilled(with: 2) }
        }
        waiting.requestCancellation()
        #expect(waiting.peek()?.isCancelled == true)
        #expect(limit.waiting == 0)
        #expect(clock.pendingDeadlineCount == 0)
        holder.fulfil(with: 1)
        #expect(limit.inFlight == 0)
    }

    @Test("a full limit still refuses as the limit, before the deadline, and sets no timer")
    func fullLimitRefuses() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 1)
        let holder = Promise<Int>()
        _ = limit.run { holder.future }
        let refused = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            limit.run { Future<Int>.fulfilled(with: 2) }
        }
        #expect(refused.peek()?.error is ConcurrencyLimitExceededError)
        #expect(limit.refusedCount == 1)
        #expect(clock.pendingDeadlineCount == 0)
        holder.fulfil(with: 1)
    }

    @Test("an operation admitted at once under a deadline sets no timer")
    func admittedAtOnce() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 2)
        let operation = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            limit.run { Future<Int>.fulfilled(with: 2) }
        }
        #expect(operation.peek()?.value == 2)
        #expect(clock.pendingDeadlineCount == 0)
    }
}
