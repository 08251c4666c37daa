/// Petal's timer thread ran a deadline's action (a timeout, a delayed retry) at least
/// ``PetalDiagnostics/lateTimerThreshold`` after its deadline.
///
/// The timer thread runs every deadline's action itself, and an action resolves a future whose
/// inline callbacks run right there; so a late timer almost always means that a callback
/// subscribed with `.inline` to a future a timeout resolves did slow work (I/O, a lock, a
/// sleep), and held up every later deadline of the process meanwhile. Give such work a context
/// of its own. A machine too loaded to schedule the thread in time shows the same way.
public struct LateTimerCallback: Sendable, CustomStringConvertible {
    /// When the action was due.
    public let deadline: ContinuousClock.Instant
    /// When the timer thread started running it.
    public let ranAt: ContinuousClock.Instant
    /// Which late timer this is in this process: 1 for the first, and each one a different number.
    public let occurrence: Int

    /// How late the action ran.
    public var lateness: Duration { deadline.duration(to: ranAt) }

    /// One line saying how late, in milliseconds.
    public var description: String {
        let (seconds, attoseconds) = lateness.components
        let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        return "Petal: the timer thread ran a deadline's action \(milliseconds) ms late; "
            + "an inline callback run by a timeout probably blocked it"
    }
}

extension PetalDiagnostics {
    /// How late the timer thread may run a deadline's action before it is reported as a
    /// ``LateTimerCallback``: 100 milliseconds.
    ///
    /// Far above what scheduling costs on a healthy machine (well under a millisecond), and well
    /// below what a service notices in its timeouts: an action that late was almost surely held
    /// up by a slow callback that ran on the timer thread.
    public static let lateTimerThreshold = Duration.milliseconds(100)

    /// How many late timer actions were counted in this process.
    ///
    /// A snapshot: the timer thread may be counting while it is read.
    public static var lateTimerCount: Int {
        lateTimerTally.snapshot.reduce(0) { $0 + $1.count }
    }

    /// One site, the timer thread: the tally numbers the reports as it does every kind's.
    private static let lateTimerTally = RepeatTally<TimerThreadSite>()

    /// Called by the timer thread for each deadline action it is about to run: if the action
    /// is ``lateTimerThreshold`` or more behind its `deadline`, counts it and calls the handler
    /// on this thread.
    ///
    /// - Returns: Whether the action was late, and so reported.
    @discardableResult
    static func reportLateTimer(deadline: ContinuousClock.Instant, ranAt: ContinuousClock.Instant) -> Bool {
        guard deadline.duration(to: ranAt) >= lateTimerThreshold else { return false }
        let occurrence = lateTimerTally.count(TimerThreadSite())
        report(
            .lateTimer(LateTimerCallback(deadline: deadline, ranAt: ranAt, occurrence: occurrence)),
            occurrence: occurrence)
        return true
    }
}

/// The one site of late timer reports: Petal's timer thread.
struct TimerThreadSite: TallySite {
    var tallyHash: UInt { 0 }

    func isSameSite(as _: TimerThreadSite) -> Bool { true }
}
