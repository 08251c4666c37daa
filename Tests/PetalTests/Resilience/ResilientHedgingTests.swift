import Foundation
import Petal
import Synchronization
import Testing

/// A hedged call that also retries after a wait and sends every copy through a breaker
/// (`HedgingPolicy.retry`, `HedgingPolicy.breaker`): what `retrying` around `hedging` around
/// `breaker.run` does, in one loop.
@Suite("Resilience: retries and the breaker inside one hedged call")
struct ResilientHedgingTests {
    /// Retries after 1 then 2 ms (no jitter), up to `attempts` sends in all, of `TestError`s only.
    static func retry(attempts: Int = 3, budget: RetryBudget? = nil) -> RetryPolicy {
        RetryPolicy(
            attempts: attempts, initialDelay: .milliseconds(1), multiplier: 2, maximumDelay: .milliseconds(8),
            budget: budget, retryingWhen: { $0 is TestError })
    }

    @Test("a rejected copy is sent again after the retry's wait, and no sooner, until its attempts are spent")
    func retriesAfterTheWait() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 2, delay: .milliseconds(5), retry: Self.retry(), hedgingWhen: { _ in false })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        #expect(copies.count == 1 && !call.isResolved)
        clock.advance(by: .microseconds(999))
        #expect(copies.count == 1)
        clock.advance(by: .microseconds(1))
        #expect(copies.count == 2)
        _ = copies[1].reject(with: TestError(2))
        clock.advance(by: .microseconds(1_999))
        #expect(copies.count == 2)
        clock.advance(by: .microseconds(1))
        #expect(copies.count == 3)
        // Three sends: the last rejection is the call's.
        _ = copies[2].reject(with: TestError(3))
        #expect(describe(call.peek()) == "rejected(TestError(code: 3))")
        // The failed copies' hedges were taken out with them.
        clock.advance(by: .seconds(1))
        #expect(copies.count == 3)
    }

    @Test("a retry is hedged as the first copy is, and the first fulfilment wins and stops the rest")
    func retriesAreHedged() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 2, delay: .milliseconds(5), retry: Self.retry(), hedgingWhen: { _ in false })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        clock.advance(by: .milliseconds(1))
        #expect(copies.count == 2)
        // The retry's hedge: 5 ms after the retry, not after the first copy.
        clock.advance(by: .microseconds(4_999))
        #expect(copies.count == 2)
        clock.advance(by: .microseconds(1))
        #expect(copies.count == 3)
        _ = copies[2].fulfil(with: 7)
        #expect(describe(call.peek()) == "fulfilled(7)")
        #expect(copies.stops == [0, 1, 0])
    }

    @Test("an error the retry declines goes to the hedging policy: at once, or the call's end")
    func declinedErrorsAreTheHedgingPolicys() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 2, delay: .milliseconds(5), retry: Self.retry(), hedgingWhen: { $0 is BackendDown })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        _ = copies[0].reject(with: BackendDown())
        #expect(copies.count == 2)
        _ = copies[1].reject(with: FutureTimeoutError(deadline: .now, duration: nil))
        #expect(describe(call.peek()).hasPrefix("rejected(the future did not resolve"))
    }

    @Test("retries draw on the retry's budget: refused, the failure is the call's last word")
    func retriesDrawOnTheirBudget() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0, burst: 1)
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 1, delay: .milliseconds(5), retry: Self.retry(attempts: 5, budget: budget),
            hedgingWhen: { _ in false })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        clock.advance(by: .milliseconds(1))
        #expect(copies.count == 2)
        _ = copies[1].reject(with: TestError(2))
        #expect(describe(call.peek()) == "rejected(TestError(code: 2))")
        #expect(budget.extraCallsSent == 1)
    }

    @Test("a request stops the waiting retry, which gives its token back and never starts")
    func aRequestStopsTheWaitingRetry() {
        let clock = DeadlineClock.manual()
        let budget = RetryBudget(share: 0, burst: 5)
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 2, delay: .milliseconds(5), retry: Self.retry(budget: budget), hedgingWhen: { _ in false })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        _ = copies[0].reject(with: TestError(1))
        call.requestCancellation()
        #expect(describe(call.peek()) == "cancelled(nil)")
        clock.advance(by: .seconds(1))
        #expect(copies.count == 1)
        #expect(budget.extraCallsSent == 0)
    }

    @Test("a retry that would begin at or after the request's deadline is not sent")
    func theDeadlineEndsTheRetries() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let policy = HedgingPolicy(
            copies: 2, delay: .milliseconds(5), retry: Self.retry(), hedgingWhen: { _ in false })
        let call = Deadline.withValue(Deadline(after: .microseconds(1_500), clock: clock)) {
            Future.hedging(policy, clock: clock) { copies.start() }
        }
        _ = copies[0].reject(with: TestError(1))
        clock.advance(by: .milliseconds(1))
        #expect(copies.count == 2)
        // The next wait, 2 ms, ends past the deadline: this rejection is the last.
        _ = copies[1].reject(with: TestError(2))
        #expect(describe(call.peek()) == "rejected(TestError(code: 2))")
        clock.advance(by: .seconds(1))
        #expect(copies.count == 2)
    }

    @Test("every copy goes through the breaker: each failure counted, and refused at once once it opens")
    func everyCopyGoesThroughTheBreaker() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "fused", policy: breakerPolicy(calls: 4, minimumCalls: 3), clock: clock)
        let copies = Copies()
        // One copy a send: the sends are the first and its retries.
        let policy = HedgingPolicy(
            copies: 1, delay: .milliseconds(5), retry: Self.retry(attempts: 5), breaker: breaker,
            hedgingWhen: { _ in false })
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        for index in 0..<3 {
            #expect(breaker.state == .closed)
            _ = copies[index].reject(with: TestError(index))
            clock.advance(by: .milliseconds(8))
        }
        // Three failures of three calls: open, and the fourth send is refused without a call.
        #expect(breaker.state == .open)
        #expect(copies.count == 3)
        guard case .rejected(let error)? = call.peek() else {
            Issue.record("the call is \(describe(call.peek()))")
            return
        }
        #expect(error is CircuitBreakerOpenError)
    }

    @Test("a hedge that loses is asked to stop and counts as nothing for the breaker")
    func losersCountAsNothing() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "losers", policy: breakerPolicy(calls: 4, minimumCalls: 1), clock: clock)
        let copies = Copies()
        let policy = HedgingPolicy(copies: 2, delay: .milliseconds(5), breaker: breaker)
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(5))
        _ = copies[1].fulfil(with: 1)
        #expect(describe(call.peek()) == "fulfilled(1)")
        #expect(copies.stops == [1, 0])
        // A failure now is one of two counted calls (the loser is not one): at 0.5, it opens.
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    /// A breaker on a manual clock (a count window of 4, slow calls opening it at half), and a
    /// call hedged 5 ms after it began whose first copy is fulfilled 3 ms in, before its hedge.
    static func answeredAt3ms(slowCallDuration: Duration, minimumCalls: Int) -> CircuitBreaker {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(
            name: "first copy",
            policy: CircuitBreakerPolicy(
                window: .calls(4), minimumCalls: minimumCalls, slowCallDuration: slowCallDuration,
                slowCallRateThreshold: 0.5),
            clock: clock)
        let copies = Copies()
        let policy = HedgingPolicy(copies: 2, delay: .milliseconds(5), breaker: breaker)
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(3))
        _ = copies[0].fulfil(with: 1)
        #expect(describe(call.peek()) == "fulfilled(1)")
        #expect(copies.count == 1)
        return breaker
    }

    @Test("a first copy answered before its hedge counts as a success, not slow (the delay within the slow duration)")
    func answeredBeforeTheHedgeIsASuccess() {
        let breaker = Self.answeredAt3ms(slowCallDuration: .milliseconds(10), minimumCalls: 2)
        // Counted: with it, one failure is half of two calls, and opens the breaker.
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("a first copy answered before its hedge counts in the period it began, at a fixed delay with no deadline")
    func answeredBeforeTheHedgeCountsWhereItBegan() {
        // Periods of 100 ms from the breaker's start; a failure opens it at 0.6 of the window.
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(
            name: "period of the start",
            policy: CircuitBreakerPolicy(
                failureRateThreshold: 0.6, window: .time(.seconds(1), buckets: 10), minimumCalls: 1),
            clock: clock)
        let copies = Copies()
        let policy = HedgingPolicy(copies: 2, delay: .milliseconds(500), breaker: breaker)
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        clock.advance(by: .milliseconds(150))
        _ = copies[0].fulfil(with: 1)
        #expect(describe(call.peek()) == "fulfilled(1)")
        // At 1,050 ms the window holds periods 1 to 10: the success, counted in period 0, has
        // left it, and a failure is the whole window. Counted where it ended (period 1), it would
        // be one of two calls, below the threshold.
        clock.advance(by: .milliseconds(900))
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test(
        "on real time, 2 threads of calls answered before their hedge: 3 failures in 10 keep the breaker closed however the fast successes are sampled, and 7 in 10 open it"
    )
    func sampledFastSuccessesWeighAsTheCallsTheyStandFor() {
        // Once the window samples, a first copy's fast success is counted, or not, by the mask
        // of the period it was sent in (`HedgeLoop.firstWeight`). A success counted as one call
        // where it stands for several would read 3 failures in 10 as more than half.
        let breaker = CircuitBreaker.sampling(named: "sampled hedges")
        // A delay far within the slow-call duration: every fulfilment before it is a fast success.
        let policy = HedgingPolicy(copies: 2, delay: .seconds(30), breaker: breaker, hedgingWhen: { _ in false })
        @Sendable func call(failing: Bool, _ index: Int) -> Future<Int> {
            let promise = Promise<Int>()
            let call = Future.hedging(policy) { promise.future }
            if failing { _ = promise.reject(with: BackendDown()) } else { _ = promise.fulfil(with: index) }
            return call
        }
        let perThread = scaled(50_000)
        let unresolved = Counter()
        onThreads(2) { _ in
            for index in 0..<perThread where !call(failing: index % 10 < 3, index).isResolved {
                unresolved.increment()
            }
        }
        #expect(unresolved.value == 0)
        #expect(breaker.state == .closed)
        // 7 in 10: the failure share passes half within a window at most. The bound only ends
        // the loop if it never opens.
        var calls = 0
        while breaker.state == .closed && calls < 10_000_000 {
            _ = call(failing: calls % 10 < 7, calls)
            calls += 1
        }
        #expect(breaker.state == .open)
    }

    @Test("a first copy answered past the slow-call duration, before a later hedge, counts as slow")
    func slowBeforeTheHedgeIsSlow() {
        // The hedge at 5 ms comes after the slow-call duration: the end is read, and the call,
        // answered at 3 ms, is slow.
        let breaker = Self.answeredAt3ms(slowCallDuration: .milliseconds(2), minimumCalls: 1)
        #expect(breaker.state == .open)
    }

    @Test("a retry policy out of range is reported on each call; one set later, in range, is not")
    func retryAdjustmentsEachCall() {
        // A jitter no other test gives, so that reports from tests running meanwhile are not counted.
        func reported(since start: Int) -> Int {
            adjustedArguments.events.dropFirst(start).count {
                $0.parameter == "RetryPolicy.jitter" && $0.given?.hasPrefix("13.25") == true
            }
        }
        let clock = DeadlineClock.manual()
        var policy = HedgingPolicy(
            copies: 1, delay: .milliseconds(5),
            retry: RetryPolicy(attempts: 2, initialDelay: .milliseconds(1), jitter: 13.25))
        let start = adjustedArguments.events.count
        for value in 1...2 {
            let call = Future.hedging(policy, clock: clock) { .fulfilled(with: value) }
            #expect(describe(call.peek()) == "fulfilled(\(value))")
        }
        #expect(reported(since: start) == 2)
        // Set after the policy was made: the new retry policy is the one read and checked.
        policy.retry = RetryPolicy(attempts: 2, initialDelay: .milliseconds(1), jitter: 0.5)
        #expect(policy.retry?.jitter == 0.5)
        let later = adjustedArguments.events.count
        _ = Future.hedging(policy, clock: clock) { .fulfilled(with: 3) }
        #expect(reported(since: later) == 0)
        policy.retry = nil
        #expect(policy.retry == nil)
    }

    @Test("8 threads, 2,000 calls each, copies answered or failed on other threads: every call resolves once")
    func manyThreads() {
        let budget = RetryBudget(share: 0.5, burst: 100)
        let breaker = CircuitBreaker(
            name: "threads", policy: breakerPolicy(threshold: 1, calls: 100, minimumCalls: 100))
        let policy = HedgingPolicy(
            copies: 2, delay: .microseconds(50), budget: budget,
            retry: RetryPolicy(attempts: 3, budget: budget, retryingWhen: { $0 is TestError }), breaker: breaker,
            hedgingWhen: { _ in false })
        let sent = Atomic<Int>(0)
        let fulfilled = Counter()
        let rejected = Counter()
        let answers = DispatchQueue(label: "answers", attributes: .concurrent)
        onThreads(8) { thread in
            for index in 0..<2_000 {
                let done = DispatchSemaphore(value: 0)
                Future.hedging(policy) { () -> Future<Int> in
                    let number = sent.add(1, ordering: .relaxed).newValue
                    let promise = Promise<Int>()
                    answers.async {
                        // Every third send fails, the rest answer: some calls retry.
                        if number % 3 == 0 {
                            _ = promise.reject(with: TestError(number))
                        } else {
                            _ = promise.fulfil(with: thread * 10_000 + index)
                        }
                    }
                    return promise.future
                }.whenResolved { outcome in
                    if case .fulfilled = outcome { fulfilled.increment() } else { rejected.increment() }
                    done.signal()
                }
                done.wait()
            }
        }
        let sends = sent.load(ordering: .relaxed)
        #expect(fulfilled.value + rejected.value == 16_000)
        #expect(sends >= 16_000)
        #expect(budget.extraCallsSent == sends - 16_000)
        #expect(breaker.state == .closed)
    }
}
