/// A timer of your own that wakes a ``DeadlineClock`` for its deadlines, in place of Petal's
/// timer thread: the timeouts, hedge delays, retry backoffs and limit waits made on the clock
/// expire where the timer runs.
///
/// Why: Petal's one timer thread sleeps until the earliest pending deadline, and a deadline
/// taken out first (a request answered before its timeout, the usual case) does not wake it to
/// sleep longer: it wakes at that deadline anyway, finds nothing due and sleeps again. In a
/// service that is a wake-up of one more thread for many requests. An event loop that answers
/// the request's I/O is awake anyway. PetalNIO's `DeadlineClock.eventLoop(_:)` is such a clock;
/// see <doc:Deadlines> for what it saves in a server.
///
/// What the timer is asked: the clock keeps its deadlines in a heap of its own, where they are
/// added and taken out, and asks the timer for a wake-up only when its earliest deadline comes
/// earlier than the wake-up last asked for. So a timer needs no cancellation, and a deadline
/// taken out in time costs it nothing; a wake-up that finds its deadline gone only asks for the
/// next.
///
/// A clock on a timer of yours keeps real time (`ContinuousClock`), as ``DeadlineClock/continuous``
/// does: a ``Deadline`` made on one is honoured by operations timed on the other.
public protocol DeadlineTimer: Sendable {
    /// Runs `wake` once, at `deadline` on the timer's clock or after it.
    ///
    /// What Petal relies on:
    /// - Running `wake` says that `deadline` has come: what is due by it then expires, on the
    ///   thread that runs `wake`, where the expired operations' work runs too (a timeout's
    ///   future is rejected there, and its inline callbacks start there).
    /// - `wake` never runs before this returns: Petal calls this with a lock of the clock's held,
    ///   which `wake` takes.
    /// - Nothing of Petal's runs while the timer holds a lock that this call also takes.
    ///
    /// - Parameters:
    ///   - deadline: When `wake` is due.
    ///   - wake: What to run then.
    /// - Throws: ``TimerUnavailableError`` when the timer cannot take the wake-up (an event loop
    ///   that has shut down): the operation whose deadline asked for it is rejected with it at
    ///   once, as when Petal's timer thread cannot start.
    func schedule(
        at deadline: ContinuousClock.Instant, _ wake: @escaping @Sendable () -> Void) throws(TimerUnavailableError)
}
