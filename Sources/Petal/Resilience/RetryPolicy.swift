#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// How ``Future/retrying(_:on:clock:_:)`` limits and spaces its attempts: how many at most, how long to
/// wait before each (backoff that grows by a factor up to a cap, with jitter), and which
/// rejections are worth another attempt.
///
/// ```swift
/// // Up to 5 attempts, waiting about 100 ms, 200 ms, 400 ms, 800 ms between them, each wait
/// // picked at random in its upper half, and only after errors that are worth it; and, with
/// // every call to the same backend, no more retries than 10% of the calls (plus 20 at once).
/// let policy = RetryPolicy.exponential(
///     attempts: 5, initialDelay: .milliseconds(100), maximumDelay: .seconds(2), jitter: 0.5,
///     budget: backendBudget,  // RetryBudget(share: 0.1, burst: 20), one per backend
///     retryingWhen: { ($0 as? HTTPError)?.isTransient ?? false })
/// ```
///
/// Jitter spreads the retries of many clients that failed together (a server restart), so that
/// they do not return together. A ``RetryBudget`` bounds what the attempts cannot: a backend
/// that is down sees every call retried `attempts` times, unless a budget shared by the calls
/// lets only a share of them retry.
public struct RetryPolicy: Sendable {
    /// How many attempts at most, the first included. Below 1 (`0`, `-3`): one attempt and no
    /// retry, reported as an ``PetalDiagnostic/Kind/adjustedArgument`` when retrying starts.
    public var attempts: Int
    /// The wait before the second attempt. Negative: no wait; longer than
    /// ``DeadlineClock/longestWait``: that. Both are reported when retrying starts.
    public var initialDelay: Duration
    /// How much each wait grows over the one before (1: a fixed wait; 2: doubling; between 0
    /// and 1, shrinking; `.infinity`, every retry after the first waits ``maximumDelay``).
    /// Not a number, or negative: 1, a fixed wait, reported when retrying starts.
    public var multiplier: Double
    /// The longest wait, whatever the growth (below ``initialDelay``, it caps that too).
    /// Negative: no wait; longer than ``DeadlineClock/longestWait``: that. Both are reported when
    /// retrying starts.
    public var maximumDelay: Duration
    /// The share of each wait chosen at random, from 0 (every wait as computed) to 1 (anywhere
    /// between zero and the computed wait): a wait `d` becomes a uniform pick in
    /// `[d × (1 − jitter), d]`. Values outside 0...1 are clamped to it, and not a number counts
    /// as 0; both are reported when retrying starts.
    public var jitter: Double
    /// Whether an attempt rejected with the error is worth another; by default every rejection
    /// is. A rejection it declines ends the retrying with that error.
    public var isRetryable: @Sendable (any Error) -> Bool
    /// Bounds the retries of every call that shares it, together with the extra copies of every
    /// ``HedgingPolicy`` that shares it; `nil` for no bound beyond ``attempts``. When the budget
    /// refuses a retry, the retrying gives up at once with the last attempt's error.
    public var budget: RetryBudget?

    /// A policy of `attempts` attempts whose waits start at `initialDelay` and grow by
    /// `multiplier` up to `maximumDelay`, each shortened at random by up to `jitter` of itself,
    /// after the rejections `isRetryable` accepts, each retry let through by `budget`.
    ///
    /// Any value is accepted, as a policy read from configuration may hold anything: each
    /// property says what a value out of its range means, and ``Future/retrying(_:on:clock:_:)``
    /// reports each such value once per retrying call, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    public init(
        attempts: Int, initialDelay: Duration = .zero, multiplier: Double = 1, maximumDelay: Duration? = nil,
        jitter: Double = 0, budget: RetryBudget? = nil,
        retryingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay ?? initialDelay
        self.jitter = jitter
        self.isRetryable = isRetryable
        self.budget = budget
    }

    /// Waits that double (or grow by `multiplier`) from `initialDelay` up to `maximumDelay`,
    /// with half of each chosen at random by default, each retry let through by `budget`.
    public static func exponential(
        attempts: Int, initialDelay: Duration, multiplier: Double = 2, maximumDelay: Duration, jitter: Double = 0.5,
        budget: RetryBudget? = nil, retryingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) -> RetryPolicy {
        RetryPolicy(
            attempts: attempts, initialDelay: initialDelay, multiplier: multiplier, maximumDelay: maximumDelay,
            jitter: jitter, budget: budget, retryingWhen: isRetryable)
    }

    /// The wait before attempt number `attempt` (2 is the first retry), for `random` in `0..<1`
    /// choosing the jitter: `initialDelay × multiplier^(attempt − 2)`, capped at `maximumDelay`,
    /// then shortened by `jitter × random` of itself. Zero before the first attempt.
    ///
    /// Total: defined for every policy and every argument, with each value out of range read
    /// as its property says (a `random` that is not a number counts as 0, others are clamped to
    /// `0...1`). The wait is never negative, never longer than the cap (nor than
    /// ``DeadlineClock/longestWait``), never shorter than `1 − jitter` of the capped growth, and
    /// costs the same few operations whatever `attempt` is.
    public func delay(beforeAttempt attempt: Int, random: Double) -> Duration {
        guard attempt >= 2 else { return .zero }
        let bounds = Bounds(self)
        // Zero grows to zero, whatever the multiplier (0 × ∞ would be NaN).
        guard bounds.initial > 0 else { return .zero }
        // pow, not a loop: one step per attempt would be linear in a caller's attempt number.
        let grown = Swift.min(bounds.initial * pow(bounds.multiplier, Double(attempt - 2)), bounds.cap)
        let share = bounds.jitter * Self.unitInterval(random, notANumber: 0)
        // Capped again as a Duration: seconds as a Double round, and a wait must never pass
        // the cap, not even by a rounding.
        return Swift.min(.seconds(grown * (1 - share)), bounds.capDuration)
    }

    /// The values `delay(beforeAttempt:random:)` computes with: every property brought into its
    /// range, as its documentation says, durations in seconds.
    private struct Bounds {
        let initial: Double
        let cap: Double
        let capDuration: Duration
        let multiplier: Double
        let jitter: Double

        init(_ policy: RetryPolicy) {
            initial = RetryPolicy.seconds(policy.initialDelay)
            capDuration = Swift.min(Swift.max(policy.maximumDelay, .zero), DeadlineClock.longestWait)
            cap = RetryPolicy.seconds(capDuration)
            multiplier = policy.multiplier >= 0 ? policy.multiplier : 1
            jitter = RetryPolicy.unitInterval(policy.jitter, notANumber: 0)
        }
    }

    /// Reports, as an ``PetalDiagnostic/Kind/adjustedArgument``, each property whose value is out of its range (what
    /// ``delay(beforeAttempt:random:)`` and the retry loop read it as): once per retrying call.
    func reportAdjustments() {
        guard !isInRange else { return }
        if attempts < 1 {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "RetryPolicy.attempts"),
                details: ["given": "\(attempts)", "used": "1 (one attempt, no retry)"])
        }
        Self.reportAdjustment(of: initialDelay, as: "RetryPolicy.initialDelay")
        Self.reportAdjustment(of: maximumDelay, as: "RetryPolicy.maximumDelay")
        if !(multiplier >= 0) {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "RetryPolicy.multiplier"),
                details: ["given": "\(multiplier)", "used": "1 (a fixed wait)"])
        }
        if !(0...1).contains(jitter) {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "RetryPolicy.jitter"),
                details: ["given": "\(jitter)", "used": "\(Self.unitInterval(jitter, notANumber: 0))"])
        }
    }

    /// Whether every value is in its range, so that ``reportAdjustments()`` has nothing to say.
    var isInRange: Bool {
        let waits = Duration.zero...DeadlineClock.longestWait
        return attempts >= 1 && waits.contains(initialDelay) && waits.contains(maximumDelay) && multiplier >= 0
            && (0...1).contains(jitter)
    }

    /// `value` clamped to `0...1`, or `notANumber` for NaN.
    private static func unitInterval(_ value: Double, notANumber: Double) -> Double {
        value.isNaN ? notANumber : Swift.min(Swift.max(value, 0), 1)
    }

    /// `duration` in seconds, as a floating-point number, within `0...DeadlineClock.longestWait`:
    /// clamped first, as `Duration`s compare safely but far ones trap in `components`.
    static func seconds(_ duration: Duration) -> Double {
        let bounded = Swift.min(Swift.max(duration, .zero), DeadlineClock.longestWait)
        let (seconds, attoseconds) = bounded.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
