/// When a ``CircuitBreaker`` opens, how long it stays open, and how many trial calls decide
/// whether it closes again.
///
/// ```swift
/// // Opens when half of the last 100 calls failed (with 20 calls at least), for 5 seconds;
/// // then 3 trial calls decide.
/// let policy = CircuitBreakerPolicy(
///     failureRateThreshold: 0.5, window: .calls(100), minimumCalls: 20,
///     openDuration: .seconds(5), trialCalls: 3)
/// ```
///
/// Why a value of its own: a policy is read from configuration and shared by the breakers of
/// several backends; any value is accepted (see ``init(failureRateThreshold:window:minimumCalls:slowCallDuration:slowCallRateThreshold:openDuration:trialCalls:)``).
public struct CircuitBreakerPolicy: Sendable, Hashable {
    /// Which calls the rates are taken over.
    public enum Window: Sendable, Hashable {
        /// The last `count` calls recorded. Below 1: 1; above ``CircuitBreakerPolicy/largestCallWindow``:
        /// that. Up to 64 calls the window is exact; above, it is kept in 64 buckets of
        /// `count / 64` calls (rounded up), and moves a bucket at a time.
        case calls(Int)
        /// The calls recorded in the last `duration`, kept in `buckets` buckets that each cover
        /// `duration / buckets` and move one at a time. A `duration` that is not positive: 60
        /// seconds; above ``CircuitBreakerPolicy/longestOpenDuration``: that; `buckets` outside
        /// `1...64`: brought into it.
        case time(Duration, buckets: Int = 10)
    }

    /// The share of failed calls in the window, from 0 to 1, at or above which the breaker
    /// opens. Not a number, or not above 0: 0.5; above 1: 1.
    public var failureRateThreshold: Double
    /// The calls the rates are taken over.
    public var window: Window
    /// Calls the window must hold before a rate can open the breaker, so that the first
    /// failure of a quiet service does not. Below 1: 1.
    public var minimumCalls: Int
    /// How long a call may take before it counts as slow, from `run` to its future's
    /// resolution. Not positive: 60 seconds.
    public var slowCallDuration: Duration
    /// The share of slow calls in the window, from 0 to 1, at or above which the breaker opens,
    /// whether or not they failed. Not a number, or not above 0: 1; above 1: 1.
    public var slowCallRateThreshold: Double
    /// How long the breaker stays open before it lets trial calls through. Below a
    /// millisecond: a millisecond; above ``longestOpenDuration``: that.
    public var openDuration: Duration
    /// The calls let through while half-open; all of them must succeed for the breaker to
    /// close. Below 1: 1; above 65,535: that.
    public var trialCalls: Int

    /// The longest ``Window/calls(_:)`` window: a million calls.
    public static let largestCallWindow = 1_000_000
    /// The longest ``openDuration``: 24 days (the breaker keeps its retry instant in 31 bits of
    /// milliseconds, in the word it moves by compare-and-swap).
    public static let longestOpenDuration = Duration.seconds(24 * 86_400)

    /// A policy that opens when `failureRateThreshold` of the calls in `window` failed, or
    /// `slowCallRateThreshold` of them took `slowCallDuration` or longer, with `minimumCalls`
    /// calls at least; stays open for `openDuration`; then lets `trialCalls` calls through.
    ///
    /// Any value is accepted, as a policy read from configuration may hold anything: each
    /// property says what a value out of its range means, and ``CircuitBreaker`` reports each
    /// such value once, when it is made, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    public init(
        failureRateThreshold: Double = 0.5, window: Window = .calls(100), minimumCalls: Int = 20,
        slowCallDuration: Duration = .seconds(60), slowCallRateThreshold: Double = 1,
        openDuration: Duration = .seconds(30), trialCalls: Int = 3
    ) {
        self.failureRateThreshold = failureRateThreshold
        self.window = window
        self.minimumCalls = minimumCalls
        self.slowCallDuration = slowCallDuration
        self.slowCallRateThreshold = slowCallRateThreshold
        self.openDuration = openDuration
        self.trialCalls = trialCalls
    }

    static let largestTrialCalls = Int(BreakerWord.fieldMask)
    static let largestBuckets = 64

    /// Every value brought into its range, as its property says.
    var bounded: CircuitBreakerPolicy {
        CircuitBreakerPolicy(
            failureRateThreshold: boundedFailureRateThreshold, window: boundedWindow, minimumCalls: boundedMinimumCalls,
            slowCallDuration: boundedSlowCallDuration, slowCallRateThreshold: boundedSlowCallRateThreshold,
            openDuration: boundedOpenDuration, trialCalls: boundedTrialCalls)
    }

    var boundedFailureRateThreshold: Double { Self.bounded(rate: failureRateThreshold, default: 0.5) }

    var boundedSlowCallRateThreshold: Double { Self.bounded(rate: slowCallRateThreshold, default: 1) }

    var boundedWindow: Window {
        switch window {
        case .calls(let count):
            return .calls(Swift.min(Swift.max(count, 1), Self.largestCallWindow))
        case .time(let duration, let buckets):
            let buckets = Swift.min(Swift.max(buckets, 1), Self.largestBuckets)
            let duration = duration > .zero ? Swift.min(duration, Self.longestOpenDuration) : .seconds(60)
            return .time(duration, buckets: buckets)
        }
    }

    var boundedMinimumCalls: Int { Swift.max(minimumCalls, 1) }

    var boundedSlowCallDuration: Duration { slowCallDuration > .zero ? slowCallDuration : .seconds(60) }

    var boundedOpenDuration: Duration {
        Swift.min(Swift.max(openDuration, .milliseconds(1)), Self.longestOpenDuration)
    }

    var boundedTrialCalls: Int { Swift.min(Swift.max(trialCalls, 1), Self.largestTrialCalls) }

    /// A rate in `(0, 1]`: one above 1 is 1; one not a number or not above 0 is `fallback`
    /// (a threshold of 0 would open on the first call).
    private static func bounded(rate: Double, default fallback: Double) -> Double {
        guard rate.isFinite || rate == .infinity, rate > 0 else { return fallback }
        return Swift.min(rate, 1)
    }

    /// Reports, as an ``PetalDiagnostic/Kind/adjustedArgument``, each property whose value is out
    /// of its range.
    func reportAdjustments() {
        func report(_ name: StaticString, _ given: some CustomStringConvertible, _ used: some CustomStringConvertible) {
            PetalDiagnostics.report(.named(.adjustedArgument, name), details: ["given": "\(given)", "used": "\(used)"])
        }
        // NaN is never equal to itself: compared by bits, so that a NaN given is reported.
        if boundedFailureRateThreshold.bitPattern != failureRateThreshold.bitPattern {
            report("CircuitBreakerPolicy.failureRateThreshold", failureRateThreshold, boundedFailureRateThreshold)
        }
        if boundedWindow != window { report("CircuitBreakerPolicy.window", "\(window)", "\(boundedWindow)") }
        if boundedMinimumCalls != minimumCalls {
            report("CircuitBreakerPolicy.minimumCalls", minimumCalls, boundedMinimumCalls)
        }
        if boundedSlowCallDuration != slowCallDuration {
            report("CircuitBreakerPolicy.slowCallDuration", slowCallDuration, boundedSlowCallDuration)
        }
        if boundedSlowCallRateThreshold.bitPattern != slowCallRateThreshold.bitPattern {
            report("CircuitBreakerPolicy.slowCallRateThreshold", slowCallRateThreshold, boundedSlowCallRateThreshold)
        }
        if boundedOpenDuration != openDuration {
            report("CircuitBreakerPolicy.openDuration", openDuration, boundedOpenDuration)
        }
        if boundedTrialCalls != trialCalls { report("CircuitBreakerPolicy.trialCalls", trialCalls, boundedTrialCalls) }
    }
}
