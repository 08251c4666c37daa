/// The clock that timeouts and delayed retries read, and the timer that keeps their deadlines.
///
/// Every API that waits takes one (`clock:`), and defaults to ``continuous``: real time, kept by
/// Petal's one timer thread. Tests pass a ``manual(startingAt:)`` clock instead, whose time moves
/// only when they ``advance(by:)`` it: a test of a one-hour timeout or of a retry's backoff then
/// runs at once, decides exactly which deadlines have passed, and never sleeps.
///
/// ```swift
/// let clock = DeadlineClock.manual()
/// let reply = request.timeout(after: .seconds(5), clock: clock)
/// clock.advance(by: .seconds(4))   // nothing is due: `reply` is still pending
/// clock.advance(by: .seconds(1))   // the deadline passes: `reply` is rejected, on this thread
/// ```
///
/// Instants are `ContinuousClock.Instant`s on every clock: a manual clock starts at a real
/// instant (by default the moment it is made) and then keeps its own time, so deadlines and
/// ``FutureTimeoutError/deadline`` read the same way whichever clock keeps them.
public final class DeadlineClock: Sendable {
    /// The deadlines this clock keeps, and its time.
    @usableFromInline
    let scheduler: DeadlineScheduler

    init(scheduler: DeadlineScheduler) {
        self.scheduler = scheduler
    }

    /// Real time: `ContinuousClock`, with every deadline in the process kept by Petal's one timer
    /// thread (started on first use). The default of every `clock:` parameter.
    public static let continuous = DeadlineClock(scheduler: .shared)

    /// Real time, with every deadline made on this clock kept by `timer` instead of Petal's
    /// timer thread: an event loop's, for a service (PetalNIO's `DeadlineClock.eventLoop(_:)`).
    ///
    /// Make one per timer, when the service starts, and keep it: a clock is an object, and the
    /// deadlines of one clock share its lock. Its instants are real time, so a ``Deadline`` of
    /// ``continuous`` and operations on this clock honour each other (see <doc:Deadlines>).
    public convenience init(timer: some DeadlineTimer) {
        self.init(scheduler: DeadlineScheduler(timer: timer))
    }

    /// Whether instants read on this clock and on `other` can be compared: the same clock, or
    /// two on real time (a manual clock keeps a time of its own).
    @usableFromInline
    func keepsTime(with other: DeadlineClock) -> Bool {
        self === other || !(scheduler.isManual || other.scheduler.isManual)
    }

    /// A clock for tests whose time stands still until ``advance(by:)`` or ``advance(to:)`` moves
    /// it; the actions that come due run on the advancing thread, before the advance returns.
    ///
    /// - Parameter start: The clock's time until it is first advanced. An instant more than
    ///   ``longestWait`` (a century) from the real time is moved in to it and reported as an
    ///   ``PetalDiagnostic/Kind/adjustedArgument``, so that no deadline measured from the clock can overflow.
    public static func manual(startingAt start: ContinuousClock.Instant = .now) -> DeadlineClock {
        let real = ContinuousClock.now
        let bounded =
            real.duration(to: start) < .zero - longestWait
            ? boundedPast(start, before: real)
            : boundedDeadline(start, after: real, for: "DeadlineClock.manual(startingAt:)")
        return DeadlineClock(scheduler: DeadlineScheduler(manualStartingAt: bounded))
    }

    /// The clock's time: `ContinuousClock.now` for ``continuous``; for a manual clock, where the
    /// last advance left it.
    public var now: ContinuousClock.Instant {
        scheduler.now
    }

    /// The clock's time in nanoseconds, for differences only (see
    /// `DeadlineScheduler.nanosecondsNow`): what calls, latencies and windows are timed by.
    var nanosecondsNow: Int64 {
        scheduler.nanosecondsNow
    }

    // The scheduler's calls that an attempt loop makes on every call, here rather than through
    // `scheduler` at the call: read there, the scheduler was retained and released around each
    // (two atomic operations apiece, callgrind).

    /// The instant of `nanoseconds`, a reading of ``nanosecondsNow`` (see
    /// `DeadlineScheduler.instant(atNanoseconds:)`).
    func instant(atNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        scheduler.instant(atNanoseconds: nanoseconds)
    }

    /// Puts `entry` on this clock's timer (see `DeadlineScheduler.schedule(_:)`).
    func schedule(_ entry: DeadlineEntry) throws(TimerUnavailableError) {
        try scheduler.schedule(entry)
    }

    /// Takes `entry` off this clock's timer; whether it was still there (see
    /// `DeadlineScheduler.cancel(_:)`).
    func cancel(_ entry: DeadlineEntry) -> Bool {
        scheduler.cancel(entry)
    }

    /// Whether this is a manual clock, which only ``advance(by:)`` and ``advance(to:)`` move.
    public var isManual: Bool {
        scheduler.isManual
    }

    /// How many deadlines wait on this clock: pending timeouts and delayed retries.
    ///
    /// A snapshot: other threads may add or remove deadlines while it is read.
    public var pendingDeadlineCount: Int {
        scheduler.pendingCount
    }

    /// Moves a manual clock forward by `duration` (see ``advance(to:)``).
    ///
    /// A negative `duration` moves nothing, and one longer than ``longestWait`` moves the clock
    /// by that; both are reported as an ``PetalDiagnostic/Kind/adjustedArgument``.
    ///
    /// - Precondition: the clock is manual.
    public func advance(by duration: Duration) {
        precondition(isManual, "Petal: only a manual clock can be advanced; DeadlineClock.continuous is real time")
        if duration < .zero {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "DeadlineClock.advance(by:)"),
                details: ["given": "\(duration)", "used": "zero (a clock never goes back)"])
        }
        advance(to: now.advanced(by: Self.boundedWait(Swift.max(duration, .zero), for: "DeadlineClock.advance(by:)")))
    }

    /// Moves a manual clock to `instant`, running what comes due on this thread, earliest
    /// deadline first (ties: first scheduled, first run), before returning.
    ///
    /// Each action runs with the clock at its own deadline, so a deadline it schedules (a
    /// retry's next wait, a timeout on the next attempt) is measured from there, and runs in
    /// this same call if it falls due by `instant`. An instant before the clock's time moves
    /// nothing, and one more than ``longestWait`` ahead moves the clock by that; both are
    /// reported as an ``PetalDiagnostic/Kind/adjustedArgument``.
    ///
    /// - Precondition: the clock is manual: real time cannot be advanced.
    public func advance(to instant: ContinuousClock.Instant) {
        precondition(isManual, "Petal: only a manual clock can be advanced; DeadlineClock.continuous is real time")
        let now = self.now
        if instant < now {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "DeadlineClock.advance(to:)"),
                details: [
                    "given": "an instant \(instant.duration(to: now)) before the clock's time",
                    "used": "the clock's time (a clock never goes back)",
                ])
        }
        scheduler.advance(to: Self.boundedDeadline(instant, after: now, for: "DeadlineClock.advance(to:)"))
    }
}
