import CBenchSupport
import Petal

/// The tail-latency primitives' cost on the path every call takes (issue 40): a call through
/// `Future.hedging` that answers before its delay, and an operation admitted through a
/// `ConcurrencyLimit` below its maximum, each against the same call made plainly.
///
/// For `Scripts/profile`: an operation is one call, whose completion handler is kept and then
/// answered, as the service's backends do, and whose future is observed with a callback. The
/// hedging delay runs on a manual clock that never moves, so no second copy starts: the entry
/// is scheduled and taken out, as for a call answered in time.
enum TailRequest {
    /// The call's completion handler, as a backend keeps it until it answers.
    // Unchecked: the probe runs on one thread.
    nonisolated(unsafe) private static let slot = CompletionSlot()
    private static let clock = DeadlineClock.manual()
    private static let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: RetryBudget(share: 0.05))
    private static let limit = ConcurrencyLimit(maximum: 64, queue: 16)
    /// Issue 56's shapes: a delay that follows the latency (its window on real time, read every
    /// 32nd call), a closed breaker on real time (its window's buckets are time slices), and the
    /// example service's resilient call, retrying around hedging around the breaker, one budget,
    /// and the same in one loop.
    private static let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
    private static let budget = RetryBudget(share: 0.05, burst: 64)
    private static let adaptivePolicy = HedgingPolicy(copies: 3, delay: latencies, budget: budget)
    private static let retryPolicy = RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), budget: budget)
    private static let breaker = CircuitBreaker(
        name: "probe", policy: CircuitBreakerPolicy(window: .time(.seconds(1), buckets: 10), minimumCalls: 100))

    /// A backend call: a promise whose owner stops the work when asked, its future returned.
    private static func call() -> Future<Int> {
        let promise = Promise<Int>()
        slot.keep { promise.fulfil(with: $0) }
        promise.cancelWhenRequested { bench_count_add() }
        return promise.future
    }

    /// `count` plain calls, each answered.
    static func plain(_ count: Int) {
        for value in 0..<count {
            call().whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// `count` calls through `Future.hedging`, each answered before its delay.
    static func hedged(_ count: Int) {
        for value in 0..<count {
            Future.hedging(policy, clock: clock) { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// `count` calls admitted through a `ConcurrencyLimit` with free slots, each answered.
    static func limited(_ count: Int) {
        for value in 0..<count {
            limit.run { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// `count` calls through `Future.hedging` whose delay is a `LatencyPercentile`, each
    /// answered before it (and recorded).
    static func adaptiveHedged(_ count: Int) {
        for value in 0..<count {
            Future.hedging(adaptivePolicy, clock: clock) { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// `count` calls through a closed `CircuitBreaker`, each answered.
    static func breakerCall(_ count: Int) {
        for value in 0..<count {
            breaker.run { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// A closed breaker on real time whose window samples its successes, as a busy service's
    /// does (issue 56): warmed up with enough calls, once per process, that each window holds
    /// thousands, so that the calls measured count one success in several (how many depends on
    /// the speed under valgrind; the measured cost moves by a few instructions with it).
    private static let sampledBreaker = CircuitBreaker(
        name: "probe, sampled", policy: CircuitBreakerPolicy(window: .time(.seconds(1), buckets: 10), minimumCalls: 100)
    )
    nonisolated(unsafe) private static var sampledBreakerWarm = false

    /// `count` calls through a closed, sampling `CircuitBreaker`, each answered.
    static func sampledBreakerCall(_ count: Int) {
        if !sampledBreakerWarm {
            sampledBreakerWarm = true
            // A fixed count, so that runs of N and 2N calls warm up alike: under callgrind,
            // several seconds, and so several windows' worth of periods (the mask follows the
            // window before each period).
            for value in 0..<150_000 {
                _ = sampledBreaker.run { call() }
                slot.answer(with: value)
            }
        }
        for value in 0..<count {
            sampledBreaker.run { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// The same in one loop: the retries and the breaker inside the hedged call
    /// (`HedgingPolicy.retry`, `HedgingPolicy.breaker`), as the example service makes it now:
    /// the breaker on the hedging's clock, so that a call's first copy begins at the reading the
    /// adaptive delay took (the example's are both real time).
    private static let fusedBreaker = CircuitBreaker(
        name: "probe, one loop",
        policy: CircuitBreakerPolicy(window: .time(.seconds(1), buckets: 10), minimumCalls: 100), clock: clock)
    private static let fusedPolicy = HedgingPolicy(
        copies: 3, delay: latencies, budget: budget, retry: retryPolicy, breaker: fusedBreaker,
        hedgingWhen: { _ in false })

    /// `count` calls retried, hedged and guarded by one loop; each answered at once.
    static func fusedResilientCall(_ count: Int) {
        for value in 0..<count {
            Future.hedging(fusedPolicy, clock: clock) { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// A fixed delay through a closed breaker on the hedging's clock, no retry, no deadline: the
    /// plainest policy with a breaker.
    private static let breakerPolicy = HedgingPolicy(
        copies: 3, delay: .milliseconds(5), budget: budget, breaker: fusedBreaker)

    /// `count` calls hedged at a fixed delay through a closed breaker; each answered at once.
    static func hedgedThroughBreaker(_ count: Int) {
        for value in 0..<count {
            Future.hedging(breakerPolicy, clock: clock) { call() }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }

    /// `count` calls as the example service's resilient variant made each: retried, hedged at a
    /// percentile, through a closed breaker, one budget; each answered at once.
    static func resilientCall(_ count: Int) {
        for value in 0..<count {
            Future.retrying(retryPolicy, clock: clock) {
                Future.hedging(adaptivePolicy, clock: clock) { breaker.run { call() } }
            }.whenFulfilled { _ in bench_count_add() }
            slot.answer(with: value)
        }
    }
}
