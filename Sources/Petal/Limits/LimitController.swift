/// The decisions of an adaptive ``ConcurrencyLimit``: the time its operations spend in flight,
/// a window at a time, against the baseline (see ``AdaptiveLimit`` for the rule).
final class LimitController: Sendable {
    let clock: DeadlineClock
    private let range: ClosedRange<Int>
    private let tolerance: Double
    private let window: Int
    private let growthWindows: Int
    private let backoff: Double
    private let baselineLifetime: Duration
    private let state: PosixLock<State>

    struct State {
        /// Nanoseconds in flight of the window's operations so far.
        var total: Double = 0
        var count = 0
        /// Whether an operation of the window finished with the limit reached.
        var reached = false
        /// Whether an operation of the window was cancelled (its deadline passed, or its
        /// consumers gave up on it).
        var cancelled = false
        /// Calm windows in a row with the limit reached.
        var calmWindows = 0
        /// The means of this period's calm windows (within the tolerance), summed and counted,
        /// and the mean of the period before (half a lifetime each, so that the baseline is at
        /// most a lifetime old and at least half of one).
        var periodTotal: Double = 0
        var periodWindows = 0
        /// The means of all this period's windows, for a period with no calm one: a backend
        /// lastingly slower is the new calm after it.
        var periodAllTotal: Double = 0
        var periodAllWindows = 0
        var meanBefore: Double = .infinity
        var periodStart: ContinuousClock.Instant

        /// The lower of this period's mean and the one before's.
        var baseline: Double {
            Swift.min(periodWindows == 0 ? .infinity : periodTotal / Double(periodWindows), meanBefore)
        }
    }

    init(_ policy: AdaptiveLimit, clock: DeadlineClock) {
        self.clock = clock
        range = policy.boundedRange
        tolerance = policy.boundedTolerance
        window = policy.boundedWindow
        growthWindows = policy.boundedGrowthWindows
        backoff = policy.boundedBackoff
        baselineLifetime = policy.boundedBaselineLifetime
        state = PosixLock(State(periodStart: clock.now))
    }

    /// The time in flight the decisions compare with, in nanoseconds (infinity before the
    /// first window).
    var baseline: Double {
        state.withLock { $0.baseline }
    }

    /// Counts an operation that was in flight since `start`, and finished `cancelled` or not,
    /// with the limit `reached` or not; returns the new maximum when this ends a window that moves it from
    /// `maximum`.
    func record(since start: ContinuousClock.Instant, reached: Bool, cancelled: Bool, maximum: Int) -> Int? {
        let now = clock.now
        return record(now - start, at: now, reached: reached, cancelled: cancelled, maximum: maximum)
    }

    /// Counts an operation that took `elapsed`, ending `now`, as ``record(since:reached:cancelled:maximum:)``.
    func record(
        _ elapsed: Duration, at now: ContinuousClock.Instant, reached: Bool, cancelled: Bool, maximum: Int
    ) -> Int? {
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Swift.max(Double(seconds) * 1e9 + Double(attoseconds) / 1e9, 0)
        return state.withLock { state -> Int? in
            state.total += nanoseconds
            state.count += 1
            state.reached = state.reached || reached
            state.cancelled = state.cancelled || cancelled
            guard state.count >= window else { return nil }
            let mean = state.total / Double(state.count)
            let wasReached = state.reached
            let wasCancelled = state.cancelled
            state.total = 0
            state.count = 0
            state.reached = false
            state.cancelled = false
            if now - state.periodStart >= baselineLifetime / 2 {
                if state.periodWindows > 0 {
                    state.meanBefore = state.periodTotal / Double(state.periodWindows)
                } else if state.periodAllWindows > 0 {
                    state.meanBefore = state.periodAllTotal / Double(state.periodAllWindows)
                }
                state.periodTotal = 0
                state.periodWindows = 0
                state.periodAllTotal = 0
                state.periodAllWindows = 0
                state.periodStart = now
            }
            let baseline = Swift.min(state.baseline, mean)
            state.periodAllTotal += mean
            state.periodAllWindows += 1
            // Only calm windows make the baseline: under overload, the windows it decides on
            // would otherwise lift it, and the limit with it.
            if mean <= baseline * tolerance && !wasCancelled {
                state.periodTotal += mean
                state.periodWindows += 1
            }
            let next: Int
            if mean > baseline * tolerance || wasCancelled {
                state.calmWindows = 0
                next = Swift.max(Swift.min(Int(Double(maximum) * backoff), maximum - 1), range.lowerBound)
            } else if wasReached {
                state.calmWindows += 1
                if state.calmWindows >= growthWindows {
                    state.calmWindows = 0
                    next = Swift.min(maximum + 1, range.upperBound)
                } else {
                    next = maximum
                }
            } else {
                state.calmWindows = 0
                next = maximum
            }
            // A maximum set from outside the range (``ConcurrencyLimit/setMaximum(_:)``) is
            // brought back into it.
            let bounded = Swift.min(Swift.max(next, range.lowerBound), range.upperBound)
            return bounded == maximum ? nil : bounded
        }
    }
}
