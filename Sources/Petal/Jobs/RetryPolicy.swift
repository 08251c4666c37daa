/// How ``Future/retrying(_:on:clock:_:)`` limits and spaces its attempts: how many at most, how long to
/// wait before each (backoff that grows by a factor up to a cap, with jitter), and which
/// rejections are worth another attempt.
///
/// ```swift
/// // Up to 5 attempts, waiting about 100 ms, 200 ms, 400 ms, 800 ms between them, each wait
/// // picked at random in its upper half, and only after errors that are worth it.
/// let policy = RetryPolicy.exponential(
///     attempts: 5, initialDelay: .milliseconds(100), maximumDelay: .seconds(2), jitter: 0.5,
///     retryingWhen: { ($0 as? HTTPError)?.isTransient ?? false })
/// ```
///
/// Jitter spreads the retries of many clients that failed together (a server restart), so that
/// they do not return together.
public struct RetryPolicy: Sendable {
    /// How many attempts at most, the first included; values below 1 count as 1.
    public var attempts: Int
    /// The wait before the second attempt.
    public var initialDelay: Duration
    /// How much each wait grows over the one before (1: a fixed wait; 2: doubling).
    public var multiplier: Double
    /// The longest wait, whatever the growth.
    public var maximumDelay: Duration
    /// The share of each wait chosen at random, from 0 (every wait as computed) to 1 (anywhere
    /// between zero and the computed wait): a wait `d` becomes a uniform pick in
    /// `[d × (1 − jitter), d]`. Values outside 0...1 are clamped.
    public var jitter: Double
    /// Whether an attempt rejected with the error is worth another; by default every rejection
    /// is. A rejection it declines ends the retrying with that error.
    public var isRetryable: @Sendable (any Error) -> Bool

    /// A policy of `attempts` attempts whose waits start at `initialDelay` and grow by
    /// `multiplier` up to `maximumDelay`, each shortened at random by up to `jitter` of itself,
    /// after the rejections `isRetryable` accepts.
    public init(
        attempts: Int, initialDelay: Duration = .zero, multiplier: Double = 1, maximumDelay: Duration? = nil,
        jitter: Double = 0, retryingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        self.attempts = attempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay ?? initialDelay
        self.jitter = jitter
        self.isRetryable = isRetryable
    }

    /// Waits that double (or grow by `multiplier`) from `initialDelay` up to `maximumDelay`,
    /// with half of each chosen at random by default.
    public static func exponential(
        attempts: Int, initialDelay: Duration, multiplier: Double = 2, maximumDelay: Duration, jitter: Double = 0.5,
        retryingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) -> RetryPolicy {
        RetryPolicy(
            attempts: attempts, initialDelay: initialDelay, multiplier: multiplier, maximumDelay: maximumDelay,
            jitter: jitter, retryingWhen: isRetryable)
    }

    /// The wait before attempt number `attempt` (2 is the first retry), for `random` in `0..<1`
    /// choosing the jitter: `initialDelay × multiplier^(attempt − 2)`, capped at `maximumDelay`,
    /// then shortened by `jitter × random` of itself. Zero before the first attempt.
    public func delay(beforeAttempt attempt: Int, random: Double) -> Duration {
        guard attempt >= 2 else { return .zero }
        let initial = Self.seconds(initialDelay)
        let cap = Swift.max(Self.seconds(maximumDelay), 0)
        // Grows one retry at a time and stops at the cap, so a late attempt costs no more steps
        // than the growth to the cap (or than its number, for a wait that never reaches it).
        var grown = initial
        for _ in 2..<attempt where grown < cap { grown *= Swift.max(multiplier, 0) }
        grown = Swift.min(grown, cap)
        let share = Swift.min(Swift.max(jitter, 0), 1) * Swift.min(Swift.max(random, 0), 1)
        return .seconds(Swift.max(grown * (1 - share), 0))
    }

    /// `duration` in seconds, as a floating-point number.
    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}
