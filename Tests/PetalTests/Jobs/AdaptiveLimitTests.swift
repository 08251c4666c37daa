import CPetal
import Testing

@testable import Petal

@Suite("Jobs: a concurrency limit whose maximum moves")
struct AdaptiveLimitTests {
    @Test("a raised maximum gives its new slots to the waiters at once, oldest first")
    func raisedMaximumAdmitsWaiters() {
        let limit = ConcurrencyLimit(maximum: 1, queue: 4)
        let operations = LimitOperations()
        let futures = (1...5).map { limit.run(operations.body($0)) }
        #expect(operations.order == [1] && limit.waiting == 4)
        limit.setMaximum(3)
        #expect(limit.maximum == 3)
        #expect(operations.order == [1, 2, 3])
        #expect(limit.inFlight == 3 && limit.waiting == 2)
        // Past the waiters, a raise admits nothing more.
        limit.setMaximum(10)
        #expect(operations.order == [1, 2, 3, 4, 5] && limit.inFlight == 5 && limit.waiting == 0)
        for id in 1...5 { operations.finish(id, with: id) }
        #expect(futures.map { describe($0.peek()) } == (1...5).map { "fulfilled(\($0))" })
        #expect(limit.inFlight == 0)
    }

    @Test("a lowered maximum lets running operations finish, and admits again only below it")
    func loweredMaximumDrains() {
        let limit = ConcurrencyLimit(maximum: 3, queue: 2)
        let operations = LimitOperations()
        let futures = (1...5).map { limit.run(operations.body($0)) }
        #expect(operations.order == [1, 2, 3] && limit.waiting == 2)
        limit.setMaximum(1)
        #expect(limit.inFlight == 3 && limit.isFull)
        let refused = limit.run(operations.body(6))
        #expect(describe(refused.peek()) == "rejected(\(ConcurrencyLimitExceededError(maximum: 1, queue: 2)))")
        // Two finish: each gives its slot back instead of handing it over, down to the maximum.
        operations.finish(1, with: 1)
        operations.finish(2, with: 2)
        #expect(operations.order == [1, 2, 3] && limit.inFlight == 1 && limit.waiting == 2)
        // The third hands its slot to the oldest waiter: one in flight at a time from now on.
        operations.finish(3, with: 3)
        #expect(operations.order == [1, 2, 3, 4] && limit.inFlight == 1 && limit.waiting == 1)
        operations.finish(4, with: 4)
        operations.finish(5, with: 5)
        #expect(futures.map { describe($0.peek()) } == (1...5).map { "fulfilled(\($0))" })
        #expect(limit.inFlight == 0 && limit.waiting == 0)
        // Without waiters, a lowered maximum refuses what it no longer admits.
        let fresh = limit.run(operations.body(7))
        let over = limit.run(operations.body(8))
        #expect(limit.inFlight == 1 && limit.waiting == 1 && over.peek() == nil)
        operations.finish(7, with: 7)
        operations.finish(8, with: 8)
        #expect(describe(fresh.peek()) == "fulfilled(7)" && describe(over.peek()) == "fulfilled(8)")
    }

    @Test("hostile maximums set are read as documented and reported")
    func hostileMaximumSet() {
        let limit = ConcurrencyLimit(maximum: 2)
        let start = adjustedArguments.events.count
        limit.setMaximum(-3)
        #expect(limit.maximum == 1)
        #expect(adjustmentReported("ConcurrencyLimit.maximum", given: "-3", since: start))
        limit.setMaximum(.max)
        #expect(limit.maximum == ConcurrencyLimit.largestCount)
        #expect(limit.adaptive == nil && limit.baselineLatency == nil)
    }

    @Test("the word's moves when the maximum moves: shed above it, grant below it, only with waiters")
    func wordMoves() {
        let waiting = LimitWord.queueing(3, maximum: 3, queue: 2)!  // three in flight, one waiting
        #expect(LimitWord.shedding(waiting, maximum: 2) == waiting - 1)
        #expect(LimitWord.shedding(waiting, maximum: 3) == nil)
        #expect(LimitWord.shedding(3, maximum: 1) == nil)  // nothing waits: the lock-free release
        let granted = LimitWord.granting(waiting, maximum: 4)!
        #expect(LimitWord.inFlight(granted) == 4 && LimitWord.waiting(granted) == 0)
        #expect(LimitWord.granting(waiting, maximum: 3) == nil)
        #expect(LimitWord.granting(1, maximum: 4) == nil)  // nobody to grant
    }

    /// Runs `count` operations of `milliseconds` each on the manual clock, `together` at a
    /// time (each group admitted, then the clock advanced, then finished).
    private func run(
        _ count: Int, taking milliseconds: Int, together: Int, on limit: ConcurrencyLimit, clock: DeadlineClock,
        operations: LimitOperations, from first: Int
    ) -> Int {
        var id = first
        var left = count
        while left > 0 {
            let group = Swift.min(together, left)
            let ids = id..<(id + group)
            let futures = ids.map { limit.run(operations.body($0)) }
            clock.advance(by: .milliseconds(milliseconds))
            for each in ids { operations.finish(each, with: each) }
            #expect(futures.allSatisfy { $0.peek()?.value != nil })
            id += group
            left -= group
        }
        return id
    }

    @Test("adaptive: up by one a window while reached and calm, down by the backoff when slower")
    func additiveIncreaseMultiplicativeDecrease() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(
                range: 2...5, initial: 4, tolerance: 1.5, window: 4, growthWindows: 1, backoff: 0.5),
            clock: clock)
        let operations = LimitOperations()
        #expect(limit.maximum == 4 && limit.baselineLatency == nil)
        // A window of 4 ms operations, 4 at a time: the limit reached, the baseline set, one more.
        var id = run(4, taking: 4, together: 4, on: limit, clock: clock, operations: operations, from: 1)
        #expect(limit.maximum == 5 && limit.baselineLatency == .milliseconds(4))
        // 6 ms is within the tolerance (1.5 times 4), and 2 at a time does not reach 5: no move.
        // A calm window, it joins the baseline: 5 ms now.
        id = run(4, taking: 6, together: 2, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 5)
        // Reached and calm at the upper bound: it holds.
        id = run(8, taking: 4, together: 5, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 5)
        // Slower than 1.5 times the baseline (4.5 ms, with two more windows of 4 ms): halved,
        // and never below the lower bound.
        id = run(4, taking: 7, together: 2, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 2)
        id = run(4, taking: 20, together: 2, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 2)
        // Calm again, and reached: back up a slot a window.
        id = run(4, taking: 4, together: 2, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 3)
        _ = run(4, taking: 4, together: 3, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 4)
        // The slow windows never joined the baseline: the mean of the six calm ones.
        #expect(limit.inFlight == 0 && limit.baselineLatency == .nanoseconds(26_000_000 / 6))
    }

    @Test("adaptive: grows after growthWindows calm windows in a row; a slow one starts the count again")
    func growthWindows() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(range: 1...8, initial: 2, window: 2, growthWindows: 3, backoff: 0.99), clock: clock)
        let operations = LimitOperations()
        var id = run(4, taking: 4, together: 2, on: limit, clock: clock, operations: operations, from: 1)
        #expect(limit.maximum == 2)
        // A slow window: one less (0.99 rounds down to at least one less), and the count restarts.
        id = run(2, taking: 40, together: 2, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 1)
        id = run(4, taking: 4, together: 1, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 1)
        _ = run(2, taking: 4, together: 1, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 2)
    }

    @Test("adaptive: a window with an operation cancelled brings the maximum down, however fast")
    func cancellationIsOverload() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(range: 1...8, initial: 4, window: 2, growthWindows: 1, backoff: 0.5), clock: clock)
        let operations = LimitOperations()
        let id = run(2, taking: 4, together: 2, on: limit, clock: clock, operations: operations, from: 1)
        #expect(limit.maximum == 4)  // calm, not reached
        let given = limit.run(operations.body(id))
        let kept = limit.run(operations.body(id + 1))
        clock.advance(by: .milliseconds(1))
        given.requestCancellation()  // its producer stops: the operation ends cancelled
        operations.finish(id + 1, with: 1)
        #expect(given.peek()?.isCancelled == true && operations.stops(id) == 1 && kept.peek()?.value == 1)
        #expect(limit.maximum == 2 && limit.inFlight == 0)
        // The cancelled window did not join the baseline.
        #expect(limit.baselineLatency == .milliseconds(4))
    }

    @Test("adaptive: the baseline is the calm of its lifetime, then the slower calm of now")
    func baselineLifetime() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(
                range: 1...8, initial: 2, window: 2, growthWindows: 1, baselineLifetime: .seconds(1)),
            clock: clock)
        let operations = LimitOperations()
        var id = run(2, taking: 2, together: 2, on: limit, clock: clock, operations: operations, from: 1)
        #expect(limit.baselineLatency == .milliseconds(2) && limit.maximum == 3)
        // The backend becomes lastingly slower (5 ms): the limit comes down while the 2 ms
        // baseline lasts; a lifetime later, with no calm window since, 5 ms is the baseline and
        // the limit grows again.
        id = run(4, taking: 5, together: 1, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.maximum == 1)
        clock.advance(by: .seconds(1))
        for _ in 0..<3 {
            id = run(2, taking: 5, together: 1, on: limit, clock: clock, operations: operations, from: id)
        }
        #expect(limit.maximum == 1 && limit.baselineLatency == .milliseconds(2))
        clock.advance(by: .seconds(1))
        id = run(2, taking: 5, together: 1, on: limit, clock: clock, operations: operations, from: id)
        #expect(limit.baselineLatency == .milliseconds(5))
        #expect(limit.maximum == 2)
        #expect(limit.inFlight == 0)
    }

    @Test("adaptive: queued operations are timed from their admission, and a rise admits them")
    func queuedOperationsTimedFromAdmission() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(range: 1...4, initial: 1, window: 2, growthWindows: 1), queue: 4, clock: clock)
        let operations = LimitOperations()
        let futures = (1...3).map { limit.run(operations.body($0)) }
        #expect(operations.order == [1] && limit.waiting == 2)
        // Each runs 3 ms once admitted, whatever it waited: two windows at the baseline, reached.
        clock.advance(by: .milliseconds(3))
        operations.finish(1, with: 1)  // hands over to 2
        clock.advance(by: .milliseconds(3))
        operations.finish(2, with: 2)  // hands over to 3; a window of 3 ms, reached: up to 2
        #expect(limit.baselineLatency == .milliseconds(3) && limit.maximum == 2)
        #expect(operations.order == [1, 2, 3] && limit.inFlight == 1 && limit.waiting == 0)
        clock.advance(by: .milliseconds(3))
        operations.finish(3, with: 3)
        #expect(futures.allSatisfy { $0.peek()?.value != nil })
        #expect(limit.inFlight == 0)
    }

    @Test("adaptive, timing what the caller reports: the operations' own times do not count")
    func reportedTiming() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(
            adaptive: AdaptiveLimit(
                range: 1...8, initial: 2, window: 2, growthWindows: 1, backoff: 0.5, timing: .reported),
            clock: clock)
        let operations = LimitOperations()
        // Two slow operations, reaching the limit: nothing moves, nothing was reported.
        let id = run(2, taking: 50, together: 2, on: limit, clock: clock, operations: operations, from: 1)
        #expect(limit.maximum == 2 && limit.baselineLatency == nil)
        // Two requests of 4 ms reported while the limit is reached: calm, up by one.
        let held = (id..<(id + 2)).map { limit.run(operations.body($0)) }
        #expect(limit.report(.milliseconds(4)) && limit.report(.milliseconds(4)))
        #expect(limit.maximum == 3 && limit.baselineLatency == .milliseconds(4))
        // A window with one past its deadline: halved, however fast.
        #expect(limit.report(.milliseconds(1), cancelled: true) && limit.report(.milliseconds(1)))
        #expect(limit.maximum == 1)
        for each in id..<(id + 2) { operations.finish(each, with: each) }
        #expect(held.allSatisfy { $0.peek()?.value != nil } && limit.inFlight == 0)
        // A limit that is not adaptive, or times its operations itself, takes no reports.
        #expect(!ConcurrencyLimit(maximum: 2).report(.milliseconds(1)))
        #expect(!ConcurrencyLimit(adaptive: AdaptiveLimit(range: 1...2)).report(.milliseconds(1)))
    }

    @Test("hostile adaptive policies are read as documented and reported")
    func hostilePolicies() {
        let start = adjustedArguments.events.count
        let policy = AdaptiveLimit(
            range: -4...0, initial: 9, tolerance: .nan, window: 0, growthWindows: -1, backoff: 2,
            baselineLifetime: .seconds(-1))
        let limit = ConcurrencyLimit(adaptive: policy, queue: -1)
        #expect(limit.maximum == 1 && limit.queue == 0 && limit.adaptive?.range == -4...0)
        for parameter in ["range", "initial", "tolerance", "window", "growthWindows", "backoff", "baselineLifetime"] {
            #expect(
                adjustedArguments.events.dropFirst(start).contains { $0.parameter == "AdaptiveLimit.\(parameter)" },
                "AdaptiveLimit.\(parameter)")
        }
        #expect(adjustmentReported("ConcurrencyLimit.queue", given: "-1", since: start))
        #expect(policy.boundedRange == 1...1 && policy.boundedTolerance == 1 && policy.boundedWindow == 1)
        #expect(policy.boundedBackoff == 0.9 && policy.boundedBaselineLifetime == .seconds(30))
        let huge = AdaptiveLimit(range: 1...Int.max, tolerance: .infinity)
        #expect(
            huge.boundedRange == 1...ConcurrencyLimit.largestCount
                && huge.boundedInitial == ConcurrencyLimit.largestCount)
        #expect(huge.boundedTolerance == 1)
        // A window of one operation on a limit of one: decisions at every operation, nothing lost.
        let clock = DeadlineClock.manual()
        let tiny = ConcurrencyLimit(adaptive: policy, clock: clock)
        let operations = LimitOperations()
        for id in 1...3 {
            let future = tiny.run(operations.body(id))
            clock.advance(by: .milliseconds(id))
            operations.finish(id, with: id)
            #expect(future.peek()?.value == id && tiny.maximum == 1)
        }
    }
}
