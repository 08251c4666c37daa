import Dispatch
import Testing

@testable import Petal

/// A backend that is down: every call fails at once, and is counted.
private final class Outage: Sendable {
    let calls = Counter()

    func call() -> Future<Int> {
        calls.increment()
        return .rejected(with: TestError(calls.value))
    }
}

/// The retry budget: retries and hedges draw their extra calls from one budget, so that a backend
/// that is down sees at most (1 + share) times its calls, plus the burst, whatever the policies say.
@Suite("Jobs: retry budget")
struct RetryBudgetTests {
    @Test("a retry spends a token; when the budget refuses, retrying gives up at once with the last error")
    func refusedRetryGivesUp() {
        let budget = RetryBudget(share: 0.25, burst: 2)
        let outage = Outage()
        let future = Future<Int>.retrying(RetryPolicy(attempts: 5, budget: budget)) { outage.call() }
        // The first attempt, then the burst's two retries; the fourth attempt is refused.
        #expect(outage.calls.value == 3)
        #expect(describe(future.peek()) == "rejected(\(TestError(3)))")
        #expect(budget.extraCallsSent == 2)
        #expect(budget.extraCallsRefused == 1)
    }

    @Test("a budget shared by a retry policy and a hedging policy bounds their extra calls together")
    func sharedByRetriesAndHedges() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0.5, burst: 1)
        let hedge = HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: budget)
        let retry = RetryPolicy(attempts: 3, budget: budget)
        // A hedged call takes the burst's one token for its copy.
        let first = Copies()
        _ = Future.hedging(hedge, clock: clock) { first.start() }
        clock.advance(by: .milliseconds(5))
        #expect(first.count == 2)
        // A retrying call deposits half a token: not enough for a retry.
        let refused = Outage()
        let refusedCall = Future<Int>.retrying(retry, clock: clock) { refused.call() }
        #expect(refused.calls.value == 1)
        #expect(describe(refusedCall.peek()) == "rejected(\(TestError(1)))")
        // The next one's half makes a token: one retry, then the budget refuses the third attempt.
        let retried = Outage()
        let retriedCall = Future<Int>.retrying(retry, clock: clock) { retried.call() }
        #expect(retried.calls.value == 2)
        #expect(describe(retriedCall.peek()) == "rejected(\(TestError(2)))")
        // The retries spent what the hedges would have: the next hedged call sends no copy.
        let last = Copies()
        _ = Future.hedging(hedge, clock: clock) { last.start() }
        clock.advance(by: .milliseconds(5))
        #expect(last.count == 1)
        #expect(budget.extraCallsSent == 2)
        #expect(budget.extraCallsRefused == 3)
        first.cancelPending()
        last.cancelPending()
    }

    @Test(
        "in an outage, 1,000 requests of 5 attempts send exactly 1,000 + 253 calls: at most (1 + share) × first calls + burst"
    )
    func outageBoundsCalls() {
        let share = 0.25
        let burst = 4
        let requests = 1000
        let budget = RetryBudget(share: share, burst: burst)
        let outage = Outage()
        var rejected = 0
        for _ in 0..<requests {
            let future = Future<Int>.retrying(RetryPolicy(attempts: 5, budget: budget)) { outage.call() }
            if future.peek()?.error is TestError { rejected += 1 }
        }
        // The first request spends the burst (4 retries); each later one deposits a quarter of a
        // token, so every fourth retries once: 999 / 4 = 249 more. Every later request is refused
        // once (after its retry, if it had one).
        #expect(budget.extraCallsSent == 4 + 249)
        #expect(budget.extraCallsRefused == requests - 1)
        #expect(outage.calls.value == requests + 253)
        #expect(Double(outage.calls.value) <= (1 + share) * Double(requests) + Double(burst))
        #expect(rejected == requests)
        // Without the budget the same policy sends five calls a request.
        let unbounded = Outage()
        _ = Future<Int>.retrying(RetryPolicy(attempts: 5)) { unbounded.call() }
        #expect(unbounded.calls.value == 5)
    }

    @Test("8 threads of retries and hedges in an outage, on a budget of no share: exactly the burst of extra calls")
    func manyThreadsSpendExactlyTheBurst() {
        let threads = 8
        let perThread = scaled(2000, floor: 200)
        let burst = threads * perThread / 16
        let budget = RetryBudget(share: 0, burst: burst)
        let outage = Outage()
        let rejected = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for _ in 0..<perThread {
                // Half the threads retry, half hedge: each call asks for exactly one extra call.
                let future =
                    thread % 2 == 0
                    ? Future<Int>.retrying(RetryPolicy(attempts: 2, budget: budget)) { outage.call() }
                    : Future<Int>.hedging(HedgingPolicy(copies: 2, delay: .seconds(60), budget: budget)) {
                        outage.call()
                    }
                if future.peek()?.error is TestError { rejected.increment() }
            }
        }
        let requests = threads * perThread
        #expect(budget.extraCallsSent == burst)
        #expect(budget.extraCallsRefused == requests - burst)
        #expect(budget.extraCallsGivenBack == 0)
        #expect(outage.calls.value == requests + burst)
        #expect(rejected.value == requests)
    }

    @Test("8 threads of retries in an outage deposit and spend without losing a share: exactly share × first calls")
    func manyThreadsSpendExactlyTheShare() {
        let threads = 8
        let perThread = scaled(2000, floor: 200)
        // A bucket large enough that no deposit is cut at the brim, emptied first: then what is
        // spent is exactly what was deposited, in whole tokens (every call asks once right after
        // its deposit, so less than one token is left at the end).
        let burst = 64
        let budget = RetryBudget(share: 0.25, burst: burst)
        for _ in 0..<burst { #expect(budget.withdraw()) }
        let outage = Outage()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            for _ in 0..<perThread {
                _ = Future<Int>.retrying(RetryPolicy(attempts: 2, budget: budget)) { outage.call() }
            }
        }
        let requests = threads * perThread
        #expect(budget.extraCallsSent == burst + requests / 4)
        #expect(budget.extraCallsRefused == requests - requests / 4)
        #expect(outage.calls.value == requests + requests / 4)
        #expect(Double(outage.calls.value) <= 1.25 * Double(requests) + Double(burst))
    }

    @Test("a retry stopped during its wait gives its token back and is not counted as sent")
    func stoppedRetryGivesTokenBack() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0, burst: 1)
        let policy = RetryPolicy(attempts: 3, initialDelay: .milliseconds(10), budget: budget)
        let outage = Outage()
        let future = Future<Int>.retrying(policy, clock: clock) { outage.call() }
        #expect(budget.extraCallsSent == 1)
        future.requestCancellation()
        clock.advance(by: .milliseconds(10))
        #expect(outage.calls.value == 1)
        #expect(budget.extraCallsSent == 0)
        #expect(budget.extraCallsGivenBack == 1)
        // The token is back: the next call retries once, and is then refused.
        let next = Outage()
        let nextCall = Future<Int>.retrying(policy, clock: clock) { next.call() }
        clock.advance(by: .milliseconds(10))
        #expect(next.calls.value == 2)
        #expect(describe(nextCall.peek()) == "rejected(\(TestError(2)))")
        #expect(budget.extraCallsSent == 1)
        #expect(budget.extraCallsRefused == 1)
    }

    @Test("a retry its context drops gives its token back; the call is cancelled with the drop")
    func droppedRetryGivesTokenBack() {
        let budget = RetryBudget(share: 0, burst: 1)
        let context = ManualContext()
        let outage = Outage()
        let future = Future<Int>.retrying(RetryPolicy(attempts: 2, budget: budget), on: context) { outage.call() }
        _ = context.runAll()  // the first attempt fails, and hands the retry to the context
        #expect(budget.extraCallsSent == 1)
        context.dropAll()
        #expect(budget.extraCallsSent == 0)
        #expect(outage.calls.value == 1)
        guard case .cancelled(let error)? = future.peek() else {
            Issue.record("not cancelled: \(describe(future.peek()))")
            return
        }
        #expect(error is DroppedWorkError)
    }

    @Test("a retry whose wait would pass the deadline takes no token")
    func deadlineBeforeBudget() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0, burst: 1)
        let outage = Outage()
        let call = Deadline.withValue(Deadline(after: .milliseconds(5), clock: clock)) {
            Future<Int>.retrying(
                RetryPolicy(attempts: 3, initialDelay: .milliseconds(10), budget: budget), clock: clock
            ) {
                outage.call()
            }
        }
        #expect(describe(call.peek()) == "rejected(\(TestError(1)))")
        #expect(budget.extraCallsSent == 0)
        #expect(budget.extraCallsRefused == 0)
    }

    @Test("hostile shares and bursts are read as documented and reported")
    func hostileValues() {
        let start = adjustedArguments.events.count
        let tiny = RetryBudget(share: 0.0001, burst: .max)
        #expect(tiny.share == 0)
        #expect(tiny.burst == RetryBudget.maximumBurst)
        #expect(adjustmentReported("RetryBudget.share", given: "0.0001", since: start))
        #expect(adjustmentReported("RetryBudget.burst", given: "\(Int.max)", since: start))
        let decimal = RetryBudget(share: 0.05, burst: 3)
        #expect(decimal.share == 0.05 && decimal.burst == 3)
        #expect(!adjustmentReported("RetryBudget.share", given: "0.05", since: start))
        // A full bucket of the largest size takes deposits without overflowing.
        tiny.deposit()
        RetryBudget(share: RetryBudget.maximumShare, burst: RetryBudget.maximumBurst).deposit()
    }

    @Test(
        "loops nested on one budget deposit once per call, in either order; a loop on another budget deposits its own")
    func nestedLoopsDepositOnce() {
        let clock = DeadlineClock.manual()
        for retryOutside in [true, false] {
            let budget = RetryBudget(share: 0.5, burst: 1)
            #expect(budget.withdraw())  // empties the bucket
            let hedge = HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: budget)
            let retry = RetryPolicy(attempts: 2, budget: budget)
            let nested: Future<Int> =
                retryOutside
                ? Future.retrying(retry, clock: clock) { Future.hedging(hedge, clock: clock) { .fulfilled(with: 1) } }
                : Future.hedging(hedge, clock: clock) { Future.retrying(retry, clock: clock) { .fulfilled(with: 1) } }
            #expect(describe(nested.peek()) == "fulfilled(1)")
            // One call, one share: half a token, not a whole one.
            #expect(!budget.withdraw(), "retry outside: \(retryOutside)")
            // The mark is gone: the next call on this thread deposits its own half.
            _ = Future.hedging(hedge, clock: clock) { Future<Int>.fulfilled(with: 2) }
            #expect(budget.withdraw(), "retry outside: \(retryOutside)")
            // An inner loop on another budget is not paid for by the outer one.
            let other = RetryBudget(share: 1, burst: 1)
            #expect(other.withdraw())
            _ = Future.retrying(retry, clock: clock) {
                Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: other), clock: clock) {
                    Future<Int>.fulfilled(with: 3)
                }
            }
            #expect(other.withdraw())
        }
    }
}
