/// How an adaptive ``ConcurrencyLimit`` moves its ``ConcurrencyLimit/maximum`` with the load:
/// down when the operations it admits take longer than they do in calm or are cancelled, up
/// again while they do not and the limit is reached (additive increase, multiplicative
/// decrease, as TCP and Netflix's concurrency-limits do).
///
/// ```swift
/// // Between 2 and 32 requests at once, 8 to start with: fewer when the requests it admits
/// // take more than 1.3 times their calm time (the work competes for the CPU).
/// let limit = ConcurrencyLimit(
///     adaptive: AdaptiveLimit(range: 2...32, initial: 8, tolerance: 1.3), queue: 2)
/// ```
///
/// Why: a fixed limit is sized for calm. Past a server's capacity (clients that ask again the
/// moment they are refused, say), refusing costs CPU too, and the work admitted then gets less
/// of it than in calm: with as many operations admitted as in calm, each takes longer, and the
/// tail of what the server does answer grows. A limit that comes down until the admitted work
/// takes its calm time again keeps that tail, and goes back up when the load does.
///
/// How, every ``window`` operations finished (or reported, see ``timing``):
/// - The window's mean time (by default in flight: from admission to the future's resolution) is compared
///   with the **baseline**: the mean of the calm windows (those within the tolerance) of the
///   last ``baselineLifetime``, the lower of its two halves'. A half with no calm window
///   counts all of its windows: a backend that became lastingly slower is the new calm after
///   a lifetime.
/// - Above ``tolerance`` times the baseline, or with an operation cancelled (its deadline
///   passed, or its consumers gave up: the sign of overload that a lost packet is to TCP):
///   the maximum is multiplied by ``backoff`` (at least one less), down to the lower bound of
///   ``range``.
/// - Otherwise, if the limit was reached (an operation finished with every slot taken or
///   something waiting) in ``growthWindows`` such windows in a row: one more, up to the upper
///   bound of ``range``. Growing slower than it shrinks keeps it from climbing back into the
///   overload it just left.
///
/// The queue moves with the maximum (see ``ConcurrencyLimit/queue``).
///
/// Cost: two readings of the limit's clock and a short lock per operation, on top of the fixed
/// limit's two compare-and-swaps.
public struct AdaptiveLimit: Sendable, Hashable {
    /// The bounds of the maximum. A lower bound below 1 is 1; an upper bound above
    /// ``ConcurrencyLimit/largestCount`` is that.
    public var range: ClosedRange<Int>
    /// The maximum to start with: brought into ``range``.
    public var initial: Int
    /// How much longer than the baseline the window's mean may be before the maximum comes
    /// down. Below 1 (or not a finite number): 1.
    public var tolerance: Double
    /// Operations finished per decision. Below 1: 1.
    public var window: Int
    /// Calm windows in a row, with the limit reached, before the maximum grows by one. Below
    /// 1: 1.
    public var growthWindows: Int
    /// The factor that brings the maximum down. Outside `0.1...0.99` (or not a finite number):
    /// 0.9.
    public var backoff: Double
    /// How long a baseline lasts. Not positive: 30 seconds.
    public var baselineLifetime: Duration
    /// What the limit times.
    public var timing: Timing

    /// What an adaptive limit times: its operations, or what its caller reports.
    public enum Timing: Sendable, Hashable {
        /// Each operation, from its admission to the resolution of its future.
        case operations
        /// What the caller reports with ``ConcurrencyLimit/report(_:cancelled:)``: a request's
        /// whole time, say, from its arrival to its answer, where an operation's time leaves
        /// out what grows most on a server short of CPU (the wait for a thread before and after
        /// the operation).
        case reported
    }

    /// A limit between `range`'s bounds, starting at `initial` (its upper bound if nil), that
    /// comes down by `backoff` when a window of `window` operations takes more than
    /// `tolerance` times the baseline or has one cancelled, and up by one after
    /// `growthWindows` other windows in a row that reach it.
    ///
    /// Any value is accepted, as a policy read from configuration may hold anything: each
    /// property says what a value out of its range means, and ``ConcurrencyLimit`` reports
    /// each such value once, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    public init(
        range: ClosedRange<Int>, initial: Int? = nil, tolerance: Double = 1.5, window: Int = 50,
        growthWindows: Int = 4, backoff: Double = 0.9, baselineLifetime: Duration = .seconds(30),
        timing: Timing = .operations
    ) {
        self.range = range
        self.initial = initial ?? range.upperBound
        self.tolerance = tolerance
        self.window = window
        self.growthWindows = growthWindows
        self.backoff = backoff
        self.baselineLifetime = baselineLifetime
        self.timing = timing
    }

    static let defaultBackoff = 0.9
    static let defaultBaselineLifetime = Duration.seconds(30)

    var boundedRange: ClosedRange<Int> {
        let lower = Swift.min(Swift.max(range.lowerBound, 1), ConcurrencyLimit.largestCount)
        let upper = Swift.min(Swift.max(range.upperBound, lower), ConcurrencyLimit.largestCount)
        return lower...upper
    }

    var boundedInitial: Int { boundedRange.clamping(initial) }

    var boundedTolerance: Double { tolerance.isFinite ? Swift.max(tolerance, 1) : 1 }

    var boundedWindow: Int { Swift.max(window, 1) }

    var boundedGrowthWindows: Int { Swift.max(growthWindows, 1) }

    var boundedBackoff: Double {
        backoff.isFinite && (0.1...0.99).contains(backoff) ? backoff : Self.defaultBackoff
    }

    var boundedBaselineLifetime: Duration {
        baselineLifetime > .zero ? baselineLifetime : Self.defaultBaselineLifetime
    }

    /// Reports, as an ``PetalDiagnostic/Kind/adjustedArgument``, each property whose value is out
    /// of its range.
    func reportAdjustments() {
        func report(_ name: StaticString, _ given: some CustomStringConvertible, _ used: some CustomStringConvertible) {
            PetalDiagnostics.report(.named(.adjustedArgument, name), details: ["given": "\(given)", "used": "\(used)"])
        }
        if boundedRange != range { report("AdaptiveLimit.range", range, boundedRange) }
        if boundedInitial != initial { report("AdaptiveLimit.initial", initial, boundedInitial) }
        if boundedTolerance != tolerance { report("AdaptiveLimit.tolerance", tolerance, boundedTolerance) }
        if boundedWindow != window { report("AdaptiveLimit.window", window, boundedWindow) }
        if boundedGrowthWindows != growthWindows {
            report("AdaptiveLimit.growthWindows", growthWindows, boundedGrowthWindows)
        }
        if boundedBackoff != backoff { report("AdaptiveLimit.backoff", backoff, boundedBackoff) }
        if boundedBaselineLifetime != baselineLifetime {
            report("AdaptiveLimit.baselineLifetime", baselineLifetime, boundedBaselineLifetime)
        }
    }
}

extension ClosedRange where Bound == Int {
    fileprivate func clamping(_ value: Int) -> Int {
        Swift.min(Swift.max(value, lowerBound), upperBound)
    }
}
