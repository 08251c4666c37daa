/// The one limit on every wait Petal keeps, and the arithmetic that honours it.
///
/// Why it exists: `Duration` and `ContinuousClock.Instant` trap on overflow, and a duration
/// read from configuration can be anything. A timeout, a retry's wait, a blocking wait or a
/// manual clock's advance computed from a caller's value must never trap later, on the timer
/// thread or in a callback the caller does not own; so every such value passes through here,
/// once, at the call that received it.
extension DeadlineClock {
    /// The longest wait Petal keeps: 100 years (of 365.25 days).
    ///
    /// A timeout, a retry policy's waits, a timed `wait(timeout:)`, a manual clock's advance
    /// and its starting instant are all kept within this of now; a longer one is shortened to
    /// it, and reported as an ``PetalDiagnostic/Kind/adjustedArgument`` through ``PetalDiagnostics/handler``. No
    /// process waits a century, so nothing real is lost, and every deadline Petal computes stays
    /// far from the limits of `Duration` and `ContinuousClock.Instant`, whose arithmetic traps.
    public static let longestWait = Duration.seconds(3_155_760_000)

    /// `duration`, shortened to ``longestWait`` when longer (reported as an adjustment of
    /// `parameter`); shorter ones are returned as they are, but for negative ones beyond
    /// `-longestWait`, which become that (already over either way: not reported).
    @usableFromInline
    static func boundedWait(_ duration: Duration, for parameter: StaticString) -> Duration {
        // As far in the past is as good as any: already over, and nothing to report.
        guard duration > longestWait else { return Swift.max(duration, .zero - longestWait) }
        PetalDiagnostics.report(
            .named(.adjustedArgument, parameter),
            details: ["given": "\(duration)", "used": "DeadlineClock.longestWait (\(longestWait))"])
        return longestWait
    }

    /// `deadline`, moved in to ``longestWait`` after `now` when later (reported as an
    /// adjustment of `parameter`).
    @usableFromInline
    static func boundedDeadline(
        _ deadline: ContinuousClock.Instant, after now: ContinuousClock.Instant, for parameter: StaticString
    ) -> ContinuousClock.Instant {
        // `now.duration(to:)` cannot overflow for the instants a caller can build without
        // trapping first, and compares without building the far instant.
        guard now.duration(to: deadline) > longestWait else { return deadline }
        PetalDiagnostics.report(
            .named(.adjustedArgument, parameter),
            details: [
                "given": "an instant \(now.duration(to: deadline)) from now",
                "used": "DeadlineClock.longestWait (\(longestWait)) from now",
            ])
        return now.advanced(by: longestWait)
    }

    /// `instant`, moved in to ``longestWait`` before `now` when earlier (reported as an
    /// adjustment of the manual clock's start, the one parameter that can be far in the past).
    static func boundedPast(
        _ instant: ContinuousClock.Instant, before now: ContinuousClock.Instant
    )
        -> ContinuousClock.Instant
    {
        guard instant.duration(to: now) > longestWait else { return instant }
        PetalDiagnostics.report(
            .named(.adjustedArgument, "DeadlineClock.manual(startingAt:)"),
            details: [
                "given": "an instant \(instant.duration(to: now)) ago",
                "used": "DeadlineClock.longestWait (\(longestWait)) ago",
            ])
        return now.advanced(by: .zero - longestWait)
    }
}
