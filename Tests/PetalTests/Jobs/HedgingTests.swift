import Foundation
import Petal
import Testing

/// The copies one hedged call started: each a promise whose stop is counted.
final class Copies: @unchecked Sendable {
    // @unchecked: `promises` is reached under `lock`.
    private let lock = NSLock()
    private var promises: [Promise<Int>] = []
    /// Apart from the promises: a stop that held the promises (through `self`) would make a
    /// cycle that outlives a test whose copies never resolve (AddressSanitizer reports it).
    private let stopCounts = Recorder<Int>()

    /// Starts a copy: a promise whose stop counts, and its future.
    func start() -> Future<Int> {
        let promise = Promise<Int>()
        let index = lock.withLock { () -> Int in
            promises.append(promise)
            return promises.count - 1
        }
        promise.cancelWhenRequested { [stopCounts] in stopCounts.record(index) }
        return promise.future
    }

    var count: Int { lock.withLock { promises.count } }
    var stops: [Int] {
        let stopped = stopCounts.events
        return (0..<count).map { index in stopped.count { $0 == index } }
    }
    subscript(index: Int) -> Promise<Int> { lock.withLock { promises[index] } }

    /// Cancels the copies still pending, as their producers would end them at last: a hedged call
    /// whose body holds its copies' promises (this object does) is otherwise a cycle.
    func cancelPending() {
        for promise in lock.withLock({ promises }) where !promise.isResolved { promise.cancel() }
    }
}

@Suite("Jobs: hedging")
struct HedgingTests {
    @Test("a copy fulfilled before the delay is the only copy, and leaves no timer behind")
    func fulfilledInTime() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5)), clock: clock) { copies.start() }
        #expect(copies.count == 1)
        #expect(clock.pendingDeadlineCount == 1)
        _ = copies[0].fulfil(with: 7)
        #expect(describe(future.peek()) == "fulfilled(7)")
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .milliseconds(50))
        #expect(copies.count == 1)
        #expect(copies.stops == [0])
    }

    /// A hedged call under a deadline `deadline` from now, 5 ms between copies, whose first
    /// copy's body takes `firstBody` of the clock: the call reads the time once as it begins
    /// (for the deadline), and its first copy's delay counts from there, not from after the body.
    private func hedgedUnderDeadline(
        _ deadline: Duration, copies count: Int, firstBody: Duration, clock: DeadlineClock, copies: Copies
    ) -> Future<Int> {
        Deadline.withValue(Deadline(after: deadline, clock: clock)) {
            Future.hedging(HedgingPolicy(copies: count, delay: .milliseconds(5)), clock: clock) {
                defer { if copies.count == 1 { clock.advance(by: firstBody) } }
                return copies.start()
            }
        }
    }

    @Test("with a deadline, the second copy is due a delay after the call began, as the deadline's check read it")
    func secondCopyCountsFromTheCallsStart() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = hedgedUnderDeadline(
            .milliseconds(20), copies: 3, firstBody: .milliseconds(1), clock: clock, copies: copies)
        #expect(copies.count == 1)
        clock.advance(by: .milliseconds(4) - .nanoseconds(1))
        #expect(copies.count == 1)
        clock.advance(by: .nanoseconds(1))
        #expect(copies.count == 2)
        // The third copy's delay counts from the second's own start.
        clock.advance(by: .milliseconds(5) - .nanoseconds(1))
        #expect(copies.count == 2)
        clock.advance(by: .nanoseconds(1))
        #expect(copies.count == 3)
        _ = copies[2].fulfil(with: 3)
        #expect(describe(future.peek()) == "fulfilled(3)")
        #expect(copies.stops == [1, 1, 0])
    }

    @Test("with a deadline, a second copy due before it from the call's start is timed, its body taking time")
    func timedBeforeTheDeadlineFromTheCallsStart() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        // Due at 5 ms from the start, before the 6 ms deadline, although the body took 2 ms.
        let future = hedgedUnderDeadline(
            .milliseconds(6), copies: 2, firstBody: .milliseconds(2), clock: clock, copies: copies)
        #expect(clock.pendingDeadlineCount == 1)
        clock.advance(by: .milliseconds(3))
        #expect(copies.count == 2)
        _ = copies[0].fulfil(with: 1)
        #expect(describe(future.peek()) == "fulfilled(1)")
        copies.cancelPending()
    }

    @Test("a copy that outlives the delay gets a second; the first answer wins and the other copy is asked once")
    func secondCopyWins() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5)), clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(4))
        #expect(copies.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(copies.count == 2)
        _ = copies[1].fulfil(with: 2)
        #expect(describe(future.peek()) == "fulfilled(2)")
        #expect(copies.stops == [1, 0])
        #expect(copies[0].isResolved)  // its stop cancelled it
        clock.advance(by: .seconds(1))
        #expect(copies.count == 2)
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("no more copies than the policy allows; when all are rejected, the last error")
    func allRejected() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), hedgingWhen: { _ in false })
        let future = Future.hedging(policy, clock: clock) { copies.start() }
        for _ in 0..<10 { clock.advance(by: .milliseconds(5)) }
        #expect(copies.count == 3)
        #expect(clock.pendingDeadlineCount == 0)
        // Declined rejections end the call at once, and ask the others.
        _ = copies[1].reject(with: TestError(2))
        #expect(describe(future.peek()) == "rejected(\(TestError(2)))")
        #expect(copies.stops == [1, 0, 1])
    }

    @Test("a retryable rejection starts the next copy at once; the call fails with the last error when none is left")
    func rejectionStartsNextCopy() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 3, delay: .seconds(60)), clock: clock) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        #expect(copies.count == 2)
        #expect(clock.pendingDeadlineCount == 1)  // the timer of the third copy, from the second
        _ = copies[1].reject(with: TestError(2))
        #expect(copies.count == 3)
        #expect(clock.pendingDeadlineCount == 0)
        #expect(future.peek() == nil)
        _ = copies[2].reject(with: TestError(3))
        #expect(describe(future.peek()) == "rejected(\(TestError(3)))")
        #expect(copies.stops == [0, 0, 0])
    }

    @Test("with copies still pending, a rejection when none is left to start waits for them")
    func rejectionWaitsForPendingCopies() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(5))
        #expect(copies.count == 2)
        _ = copies[0].reject(with: TestError(1))
        #expect(future.peek() == nil)
        _ = copies[1].fulfil(with: 9)
        #expect(describe(future.peek()) == "fulfilled(9)")
    }

    @Test("a cancelled copy cancels the call with its indirect error and asks the others")
    func cancelledCopy() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(5))
        _ = copies[0].cancel(withIndirectError: TestError(4))
        #expect(describe(future.peek()) == "cancelled(\(TestError(4)))")
        #expect(copies.stops == [0, 1])
    }

    @Test("a request stops hedging: every pending copy asked once, no copy after, the call cancelled")
    func requestStopsHedging() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 4, delay: .milliseconds(5)), clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(10))
        #expect(copies.count == 3)
        future.requestCancellation()
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(copies.stops == [1, 1, 1])
        #expect(clock.pendingDeadlineCount == 0)
        clock.advance(by: .seconds(1))
        #expect(copies.count == 3)
        _ = copies[2].fulfil(with: 1)  // a late answer changes nothing
        #expect(describe(future.peek()) == "cancelled(nil)")
    }

    @Test("a request on a future chained onto the hedged call reaches the copies by its vote")
    func requestThroughAChain() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let chained = Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) { copies.start() }
            .then { $0 + 1 }
        clock.advance(by: .milliseconds(5))
        chained.requestCancellation()
        #expect(copies.stops == [1, 1])
    }

    @Test("a copy shared with another consumer is only voted on, not stopped, when the call is decided")
    func sharedCopyVoted() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let first = copies.start()
        let other = first.then { $0 }  // another consumer that still wants the first copy
        let made = Counter()
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) {
            made.increment()
            return made.value == 1 ? first : copies.start()
        }
        clock.advance(by: .milliseconds(5))
        _ = copies[1].fulfil(with: 3)
        #expect(describe(future.peek()) == "fulfilled(3)")
        #expect(copies.stops == [0, 0])
        other.requestCancellation()
        #expect(copies.stops == [1, 0])
    }

    @Test("a body that throws counts as a rejected copy")
    func throwingBody() {
        let clock = DeadlineClock.manual()
        let runs = Counter()
        let future = Future<Int>.hedging(HedgingPolicy(copies: 3, delay: .milliseconds(5)), clock: clock) {
            runs.increment()
            if runs.value < 3 { throw TestError(runs.value) }
            return .fulfilled(with: 30)
        }
        #expect(runs.value == 3)
        #expect(describe(future.peek()) == "fulfilled(30)")
        let declined = Future<Int>.hedging(
            HedgingPolicy(copies: 3, delay: .milliseconds(5), hedgingWhen: { _ in false }), clock: clock
        ) { throw TestError(8) }
        #expect(describe(declined.peek()) == "rejected(\(TestError(8)))")
    }

    @Test("a zero delay starts every copy at once")
    func zeroDelay() {
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 3, delay: .zero)) { copies.start() }
        #expect(copies.count == 3)
        _ = copies[2].fulfil(with: 5)
        #expect(describe(future.peek()) == "fulfilled(5)")
        #expect(copies.stops == [1, 1, 0])
    }

    @Test("a budget lets through its burst, then its share of calls")
    func budget() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0.5, burst: 1)
        let policy = HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: budget)
        var all: [Copies] = []
        for _ in 0..<6 {
            let copies = Copies()
            all.append(copies)
            _ = Future.hedging(policy, clock: clock) { copies.start() }
            clock.advance(by: .milliseconds(5))
        }
        // The burst (1, topped up by nothing: it is full), then one hedge per two calls.
        #expect(all.map(\.count) == [2, 1, 2, 1, 2, 1])
        #expect(budget.extraCallsSent == 3)
        #expect(budget.extraCallsRefused == 3)
        for copies in all { copies.cancelPending() }
    }

    @Test("an extra copy whose call was decided before it started gives its token back and is not counted as sent")
    func budgetTakesBackUnstartedCopy() {
        let budget = RetryBudget(share: 0, burst: 1)
        let context = ManualContext()
        let policy = HedgingPolicy(copies: 2, delay: .zero, budget: budget)
        let copies = Copies()
        let future = Future.hedging(policy, on: context) { copies.start() }
        context.runAll()  // the first copy; its run lets the second through and hands it on
        #expect(budget.extraCallsSent == 1)
        _ = copies[0].fulfil(with: 1)
        context.runAll()  // the second copy's turn: the call is over, so it never starts
        #expect(copies.count == 1)
        #expect(budget.extraCallsSent == 0)
        #expect(describe(future.peek()) == "fulfilled(1)")
        // The token is back: the next call's extra copy is let through, and counted when it runs.
        let next = Copies()
        _ = Future.hedging(policy, on: context) { next.start() }
        context.runAll()
        context.runAll()
        #expect(next.count == 2)
        #expect(budget.extraCallsSent == 1)
        #expect(budget.extraCallsRefused == 0)
        next.cancelPending()
    }

    @Test("an extra copy its context drops gives its token back; the call is cancelled with the drop")
    func budgetTakesBackDroppedCopy() {
        let budget = RetryBudget(share: 0, burst: 1)
        let context = ManualContext()
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .zero, budget: budget), on: context) {
            copies.start()
        }
        context.runAll()
        #expect(budget.extraCallsSent == 1)
        context.dropAll()
        #expect(budget.extraCallsSent == 0)
        guard case .cancelled(let error)? = future.peek() else {
            Issue.record("not cancelled: \(describe(future.peek()))")
            return
        }
        #expect(error is DroppedWorkError)
        #expect(copies.stops == [1])
    }

    @Test("a rejection refused an extra copy by the budget ends the call when it was the last copy")
    func budgetRefusesRetry() {
        let budget = RetryBudget(share: 0, burst: 0)
        let copies = Copies()
        let future = Future.hedging(HedgingPolicy(copies: 3, delay: .seconds(1), budget: budget)) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        #expect(copies.count == 1)
        #expect(describe(future.peek()) == "rejected(\(TestError(1)))")
    }

    @Test("hostile policies and budgets are read as documented and reported")
    func hostileValues() {
        let start = adjustedArguments.events.count
        let none = Copies()
        _ = Future.hedging(HedgingPolicy(copies: -3, delay: .zero)) { none.start() }
        #expect(none.count == 1)
        #expect(adjustmentReported("HedgingPolicy.copies", given: "-3", since: start))
        let many = Copies()
        _ = Future.hedging(HedgingPolicy(copies: .max, delay: .seconds(-1))) { many.start() }
        #expect(many.count == HedgingPolicy.maximumCopies)
        none.cancelPending()
        many.cancelPending()
        #expect(adjustmentReported("HedgingPolicy.copies", given: "\(Int.max)", since: start))
        #expect(adjustmentReported("HedgingPolicy.delay", given: "-1", since: start))
        let nan = RetryBudget(share: .nan, burst: -5)
        #expect(nan.share == 0 && nan.burst == 0)
        #expect(adjustmentReported("RetryBudget.share", given: "nan", since: start))
        #expect(adjustmentReported("RetryBudget.burst", given: "-5", since: start))
        let huge = RetryBudget(share: .infinity)
        #expect(huge.share == Double(HedgingPolicy.maximumCopies))
    }

    @Test("a policy is a value: a property set on a copy changes that copy only, and is what its calls read")
    func policyIsAValue() {
        let original = HedgingPolicy(copies: 2, delay: .milliseconds(5))
        var changed = original
        changed.copies = -7
        changed.delay = .seconds(-2)
        changed.breaker = CircuitBreaker(name: "value")
        changed.retry = RetryPolicy(attempts: 2)
        #expect(original.copies == 2 && original.delay == .milliseconds(5))
        #expect(original.breaker == nil && original.retry == nil)
        #expect(changed.copies == -7 && changed.delay == .seconds(-2))
        #expect(changed.breaker?.name == "value" && changed.retry?.attempts == 2)
        let start = adjustedArguments.events.count
        let copies = Copies()
        _ = Future.hedging(changed) { copies.start() }
        // Seven copies below one: one copy, and a delay below zero reported with it.
        #expect(copies.count == 1)
        #expect(adjustmentReported("HedgingPolicy.copies", given: "-7", since: start))
        #expect(adjustmentReported("HedgingPolicy.delay", given: "-2", since: start))
        copies.cancelPending()
        changed.copies = 2
        changed.delay = .milliseconds(5)
        let later = adjustedArguments.events.count
        let again = Copies()
        _ = Future.hedging(changed) { again.start() }
        again.cancelPending()
        #expect(
            !adjustedArguments.events.dropFirst(later).contains {
                $0.parameter == "HedgingPolicy.copies" && $0.given?.hasPrefix("-7") == true
            })
    }
}
