/// The decisions of an adaptive ``ConcurrencyLimit``: the time its operations spend in flight,
/// a window at a time, against the baseline (see ``AdaptiveLimit`` for the rule).
final class LimitController: Sendable {
    let clock: DeadlineClock
    private let range: ClosedRange<Int>
    private let tolerance: Double
    private let window: Int
    private let backoff: Double
    private let baselineLifetime: Duration
    private let state: PosixLock<State>

    struct State {
        /// Nanoseconds in flight of the window's operations so far.
        var total: Double = 0
        var count = 0
        /// Whether an operation of the window finished with the limit reached.
        var reached = false
        /// The lowest window mean of this period of the baseline's lifetime and of the one
        /// before (half a lifetime each, so that the baseline is at most a lifetime old and at
        /// least half of one).
        var lowest: Double = .infinity
        var lowestBefore: Double = .infinity
        var periodStart: ContinuousClock.Instant
    }

    init(_ policy: AdaptiveLimit, clock: DeadlineClock) {
        self.clock = clock
        range = policy.boundedRange
        tolerance = policy.boundedTolerance
        window = policy.boundedWindow
        backoff = policy.boundedBackoff
        baselineLifetime = policy.boundedBaselineLifetime
        state = PosixLock(State(periodStart: clock.now))
    }

    /// The lowest window mean the decisions compare with, in nanoseconds (infinity before the
    /// first window).
    var baseline: Double {
        state.withLock { Swift.min($0.lowest, $0.lowestBefore) }
    }

    /// Counts an operation that was in flight since `start`, and finished with the limit
    /// `reached` or not; returns the new maximum when this ends a window that moves it from
    /// `maximum`.
    func record(since start: ContinuousClock.Instant, reached: Bool, maximum: Int) -> Int? {
        let now = clock.now
        let elapsed = now - start
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Swift.max(Double(seconds) * 1e9 + Double(attoseconds) / 1e9, 0)
        return state.withLock { state -> Int? in
            state.total += nanoseconds
            state.count += 1
            state.reached = state.reached || reached
            guard state.count >= window else { return nil }
            let mean = state.total / Double(state.count)
            let wasReached = state.reached
            state.total = 0
            state.count = 0
            state.reached = false
            if now - state.periodStart >= baselineLifetime / 2 {
                state.lowestBefore = state.lowest
                state.lowest = .infinity
                state.periodStart = now
            }
            state.lowest = Swift.min(state.lowest, mean)
            let baseline = Swift.min(state.lowest, state.lowestBefore)
            let next: Int
            if mean > baseline * tolerance {
                next = Swift.max(Swift.min(Int(Double(maximum) * backoff), maximum - 1), range.lowerBound)
            } else if wasReached {
                next = Swift.min(maximum + 1, range.upperBound)
            } else {
                next = maximum
            }
            // A maximum set from outside the range (``ConcurrencyLimit/setMaximum(_:)``) is
            // brought back into it.
            let bounded = Swift.min(Swift.max(next, range.lowerBound), range.upperBound)
            return bounded == maximum ? nil : bounded
        }
    }
}
