import Petal

/// The guide's hedged fan-out.
func hedgedFanOut(to backends: [Backend], key: Int) -> Future<[Int]> {
    // snippet: hedging
    let budget = RetryBudget(share: 0.05, burst: 64)  // extra copies: at most 5% of calls, 64 at once
    let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget)

    let calls = backends.map { backend in Future.hedging(policy) { backend.call(key) } }
    let all = Future.fulfillingWhen(calls).timeout(after: .milliseconds(20))
    // snippet end
    return all
}

/// The guide's hedged fan-out whose delay follows the backend's latency.
func adaptiveHedgedFanOut(to backends: [Backend], key: Int) -> Future<[Int]> {
    // snippet: adaptive-hedging
    // Made once per backend and shared, as the budget is: each call adds its latency.
    let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
    let budget = RetryBudget(share: 0.05, burst: 64)
    let policy = HedgingPolicy(copies: 3, delay: latencies, budget: budget)

    let calls = backends.map { backend in Future.hedging(policy) { backend.call(key) } }
    // snippet end
    return Future.fulfillingWhen(calls).timeout(after: .milliseconds(20))
}

/// The guide's fan-out to a backend that may fail: hedged, retried and guarded by one loop.
func resilientFanOut(to backends: [Backend], key: Int) -> Future<[Int]> {
    // snippet: resilient-call
    // Made once per backend and shared: the breaker, the budget and the latencies.
    let breaker = CircuitBreaker(
        name: "backend",
        policy: CircuitBreakerPolicy(
            failureRateThreshold: 0.5, window: .time(.seconds(1), buckets: 10), minimumCalls: 100,
            openDuration: .milliseconds(500), trialCalls: 5))
    let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
    let budget = RetryBudget(share: 0.05, burst: 64)
    let policy = HedgingPolicy(
        copies: 3, delay: latencies, budget: budget,
        retry: .exponential(
            attempts: 3, initialDelay: .milliseconds(1), maximumDelay: .milliseconds(4),
            retryingWhen: { $0 is BackendUnavailableError }),
        breaker: breaker, hedgingWhen: { _ in false })

    // Open: the request is refused at once, not each of its calls.
    if let refusal = breaker.refusal { return .rejected(with: refusal) }
    let calls = backends.map { backend in Future.hedging(policy) { backend.call(key) } }
    // snippet end
    return Future.fulfillingWhen(calls).timeout(after: .milliseconds(20))
}
