/// What takes a deadline off a ``DeadlineTimer`` before it expires.
///
/// Called at most once, from any thread; one called after its deadline's expiry began, or
/// against a timer that has since stopped, must do nothing.
public typealias DeadlineTimerCancellation = @Sendable () -> Void

/// A timer of your own that keeps a ``DeadlineClock``'s deadlines, in place of Petal's timer
/// thread: every timeout, hedge delay, retry backoff and limit wait made on the clock is armed on
/// it, and taken off it when the work it guards ends first.
///
/// Why: Petal's one timer thread sleeps until the earliest pending deadline, and a deadline
/// taken out first (a request answered before its timeout, the usual case) does not wake it to
/// sleep longer: it wakes at that deadline anyway, finds nothing due and sleeps again. In a
/// service that is a wake-up of one more thread for most requests. An event loop that answers
/// the request's I/O is awake anyway, and recomputes its next wake-up on every turn, so a
/// deadline taken off it costs no wake-up at all. PetalNIO's `DeadlineClock.eventLoop(_:)` is
/// such a clock; see <doc:Deadlines> for what it saves in a server.
///
/// A clock on a timer of yours keeps real time (`ContinuousClock`), as ``DeadlineClock/continuous``
/// does: a ``Deadline`` made on one is honoured by operations timed on the other.
public protocol DeadlineTimer: Sendable {
    /// Runs `expiry` once, at or after `deadline` on `ContinuousClock`, unless the cancellation
    /// returned runs first.
    ///
    /// What Petal relies on:
    /// - `expiry` never runs before this returns: Petal calls this with a lock of the clock's
    ///   held, which `expiry` takes. It runs on a thread of the timer's choosing, where the
    ///   expired operation's work then runs (a timeout's future is rejected there, and its
    ///   inline callbacks start there).
    /// - `expiry` never runs before `deadline`, measured on `ContinuousClock` (a timer on
    ///   another clock adds what it may be behind).
    /// - Neither `schedule` nor the cancellation runs `expiry`, nor anything of Petal's, while
    ///   holding a lock of the timer's that `schedule` also takes.
    /// - A deadline already passed is still handed to the timer, which runs `expiry` on its next
    ///   turn.
    ///
    /// - Parameters:
    ///   - deadline: When `expiry` is due.
    ///   - expiry: What to run then; it does nothing if the deadline was cancelled meanwhile.
    /// - Returns: What takes the deadline off the timer.
    /// - Throws: ``TimerUnavailableError`` when the timer cannot take the deadline (an event
    ///   loop that has shut down): the operation that asked is rejected with it at once, as when
    ///   Petal's timer thread cannot start.
    func schedule(
        at deadline: ContinuousClock.Instant, _ expiry: @escaping @Sendable () -> Void
    ) throws(TimerUnavailableError) -> DeadlineTimerCancellation
}
