/// How ``Future/hedging(_:on:clock:_:)`` hedges a call: how many copies of it at most, how long
/// to wait for one before starting the next, which rejections start the next at once, and the
/// budget that bounds how many extra calls a service sends.
///
/// ```swift
/// // A backend that answers in 1-5 ms, and sometimes never: a second copy after 5 ms, a third
/// // after 10, and no more extra copies than 5% of calls (plus a burst of 64: two requests'
/// // worth of a fan-out of 32 calls, see RetryBudget).
/// let budget = RetryBudget(share: 0.05, burst: 64)
/// let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget)
/// let value = Future.hedging(policy) { backend.fetch(key) }
/// ```
///
/// Hedge after the latency that most calls beat (about the 95th percentile, as "The Tail at
/// Scale" advises): a shorter delay sends many copies that were about to be answered anyway.
public struct HedgingPolicy: Sendable {
    /// How many copies at most, the first included. Below 1: one copy and no hedge; above
    /// ``maximumCopies``: that many. Both are reported when hedging starts.
    public var copies: Int
    /// How long each copy has before the next starts, unless ``adaptiveDelay`` is set. Negative:
    /// no wait (every copy at once); longer than ``DeadlineClock/longestWait``: that. Both are
    /// reported when hedging starts.
    public var delay: Duration
    /// A delay that follows the latency: when set, each hedged call waits ``LatencyPercentile/delay``
    /// as it is when the call begins (in place of ``delay``), and records its own latency there.
    public var adaptiveDelay: LatencyPercentile?
    /// Bounds the extra copies of every call that shares it, together with the retries of every
    /// ``RetryPolicy`` that shares it; `nil` for no bound beyond ``copies``.
    public var budget: RetryBudget?
    /// Whether a copy rejected with the error lets the next copy start at once (without waiting
    /// for the delay); by default every rejection does. A rejection it declines ends the hedged
    /// call with that error, and the other copies are asked to stop.
    public var isRetryable: @Sendable (any Error) -> Bool
    /// Failures sent again after a wait, in the same hedged call: a copy rejected with an
    /// error this policy accepts is sent again after its ``RetryPolicy/delay(beforeAttempt:random:)``,
    /// up to ``RetryPolicy/attempts`` sends in all (less the first), each retry drawn from its
    /// ``RetryPolicy/budget`` (or, without one, from ``budget``) and hedged as the first copy is.
    /// It is asked before ``isRetryable``; `nil` (the default) for no retry after a wait.
    ///
    /// What `Future.retrying(retry) { Future.hedging(policy) { ... } }` does, in one loop: one
    /// result, one subscription per copy, one timer at a time (see <doc:CircuitBreakers>).
    /// At most one retry waits at a time: a copy that fails while another's retry waits is not
    /// sent again.
    public var retry: RetryPolicy? {
        get { retryPlan?.policy }
        set { retryPlan = newValue.map(RetryPlan.init) }
    }
    /// ``retry``, kept in a shared object: a hedged call takes it with one retain, not a copy
    /// of the policy's closure and budget, and learns with one load whether it needs reporting.
    private(set) var retryPlan: RetryPlan?
    /// The circuit breaker every copy goes through, as `breaker.run { ... }` inside the hedged
    /// call would: each copy, retries included, is let through or refused (with a
    /// ``CircuitBreakerOpenError``, a rejection ``isRetryable`` and ``retry`` see like any
    /// other), and its outcome counted; `nil` (the default) for none.
    public var breaker: CircuitBreaker?

    /// The most copies of one call: a larger ``copies`` is read as this (gRPC caps its attempts
    /// at five; a call sent more than eight times is a load test, not a hedge).
    public static let maximumCopies = 8

    /// A policy of up to `copies` copies, each started `delay` after the one before unless a
    /// copy was fulfilled, within `budget`, the next starting at once after the rejections
    /// `isRetryable` accepts.
    ///
    /// Any value is accepted, as a policy read from configuration may hold anything: each
    /// property says what a value out of its range means, and ``Future/hedging(_:on:clock:_:)``
    /// reports each such value once per call, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    /// `retry` and `breaker` make the hedged call the whole of a resilient call (see ``retry``
    /// and ``breaker``).
    public init(
        copies: Int, delay: Duration, budget: RetryBudget? = nil, retry: RetryPolicy? = nil,
        breaker: CircuitBreaker? = nil, hedgingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.copies = copies
        self.delay = delay
        self.budget = budget
        retryPlan = retry.map(RetryPlan.init)
        self.breaker = breaker
        self.isRetryable = isRetryable
    }

    /// A policy of up to `copies` copies, each started when the one before has waited the
    /// delay `latencies` reads now (a percentile of the latencies it observes; see
    /// ``LatencyPercentile``), unless a copy was fulfilled; within `budget`, the next starting
    /// at once after the rejections `isRetryable` accepts.
    ///
    /// ```swift
    /// let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
    /// let policy = HedgingPolicy(copies: 2, delay: latencies, budget: budget)
    /// ```
    ///
    /// Share `latencies` between the calls to one backend, as a budget is shared: a percentile
    /// needs many calls, and each call adds its own.
    public init(
        copies: Int, delay latencies: LatencyPercentile, budget: RetryBudget? = nil, retry: RetryPolicy? = nil,
        breaker: CircuitBreaker? = nil, hedgingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.init(
            copies: copies, delay: latencies.ceiling, budget: budget, retry: retry, breaker: breaker,
            hedgingWhen: isRetryable)
        adaptiveDelay = latencies
    }

    /// ``copies`` brought into `1...maximumCopies`.
    var boundedCopies: Int {
        Swift.min(Swift.max(copies, 1), Self.maximumCopies)
    }

    /// ``delay`` brought into `0...DeadlineClock.longestWait`.
    var boundedDelay: Duration {
        Swift.min(Swift.max(delay, .zero), DeadlineClock.longestWait)
    }

    /// Reports, as an ``PetalDiagnostic/Kind/adjustedArgument``, each property whose value is out
    /// of its range: once per hedged call.
    func reportAdjustments() {
        if copies < 1 {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingPolicy.copies"),
                details: ["given": "\(copies)", "used": "1 (one copy, no hedge)"])
        } else if copies > Self.maximumCopies {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingPolicy.copies"),
                details: ["given": "\(copies)", "used": "\(Self.maximumCopies) (HedgingPolicy.maximumCopies)"])
        }
        if adaptiveDelay == nil { Self.reportAdjustment(of: delay, as: "HedgingPolicy.delay") }
        if let retryPlan, !retryPlan.isInRange { retryPlan.policy.reportAdjustments() }
    }
}

/// A ``RetryPolicy`` a ``HedgingPolicy`` carries, with whether it is in range, decided once.
///
/// Why: a policy is made once and used by every call, and the retry policy's checks and the
/// copies of its closure and budget were, per hedged call, about 500 instructions in callgrind.
final class RetryPlan: Sendable {
    let policy: RetryPolicy
    /// Whether every value of `policy` is in its range: nothing to report.
    let isInRange: Bool

    init(_ policy: RetryPolicy) {
        self.policy = policy
        isInRange = policy.isInRange
    }
}
