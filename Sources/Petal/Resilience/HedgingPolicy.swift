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
    public var copies: Int {
        get { plan.values.copies }
        set { replan { $0.copies = newValue } }
    }
    /// How long each copy has before the next starts, unless ``adaptiveDelay`` is set. Negative:
    /// no wait (every copy at once); longer than ``DeadlineClock/longestWait``: that. Both are
    /// reported when hedging starts.
    public var delay: Duration {
        get { plan.values.delay }
        set { replan { $0.delay = newValue } }
    }
    /// A delay that follows the latency: when set, each hedged call waits ``LatencyPercentile/delay``
    /// as it is when the call begins (in place of ``delay``), and records its own latency there.
    public var adaptiveDelay: LatencyPercentile? {
        get { plan.values.adaptiveDelay }
        set { replan { $0.adaptiveDelay = newValue } }
    }
    /// Bounds the extra copies of every call that shares it, together with the retries of every
    /// ``RetryPolicy`` that shares it; `nil` for no bound beyond ``copies``.
    public var budget: RetryBudget? {
        get { plan.values.budget }
        set { replan { $0.budget = newValue } }
    }
    /// Whether a copy rejected with the error lets the next copy start at once (without waiting
    /// for the delay); by default every rejection does. A rejection it declines ends the hedged
    /// call with that error, and the other copies are asked to stop.
    public var isRetryable: @Sendable (any Error) -> Bool {
        get { plan.values.isRetryable }
        set { replan { $0.isRetryable = newValue } }
    }
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
        get { plan.values.retry }
        set { replan { $0.retry = newValue } }
    }
    /// The circuit breaker every copy goes through, as `breaker.run { ... }` inside the hedged
    /// call would: each copy, retries included, is let through or refused (with a
    /// ``CircuitBreakerOpenError``, a rejection ``isRetryable`` and ``retry`` see like any
    /// other), and its outcome counted; `nil` (the default) for none.
    ///
    /// A first copy fulfilled before the next copy's timer fires, with the delay at most the
    /// breaker's ``CircuitBreakerPolicy/slowCallDuration``, is counted as a success that was
    /// not slow, in the period it began, without reading the clock as it ends: on the path of
    /// nearly every call in calm, that reading costs about 20 ns. (A timer that fires late lets
    /// a call answered just past the delay through this way.)
    public var breaker: CircuitBreaker? {
        get { plan.values.breaker }
        set { replan { $0.breaker = newValue } }
    }

    /// The values, in one object shared by every copy of this policy, with what a call derives
    /// from them: what a hedged call reads (see `HedgingPlan`). Made again when a property is
    /// set.
    ///
    /// The policy's only stored property: a policy is captured by the closures a service makes
    /// per request, and each copy of it held by value retained each of its references (a
    /// breaker, a budget, a percentile, the closure's context, the retry policy's), each shared
    /// with every request on every thread. One reference is one retain.
    private(set) var plan: HedgingPlan

    /// Sets one value: a new plan, as the policy is immutable once a call holds it.
    private mutating func replan(_ change: (inout HedgingPlan.Values) -> Void) {
        var values = plan.values
        change(&values)
        plan = HedgingPlan(values)
    }

    /// A policy of `values`.
    private init(_ values: HedgingPlan.Values) {
        plan = HedgingPlan(values)
    }

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
        self.init(
            HedgingPlan.Values(
                budget: budget, copies: copies, delay: delay, isRetryable: isRetryable, retry: retry, breaker: breaker))
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
            HedgingPlan.Values(
                budget: budget, copies: copies, delay: latencies.ceiling, adaptiveDelay: latencies,
                isRetryable: isRetryable, retry: retry, breaker: breaker))
    }

    /// Reports, as an ``PetalDiagnostic/Kind/adjustedArgument``, each property whose value is out
    /// of its range: once per hedged call.
    func reportAdjustments() {
        guard !plan.isInRange else { return }
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
        retry?.reportAdjustments()
    }
}
