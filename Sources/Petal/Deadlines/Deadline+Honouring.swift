/// What Petal's operations read of the current deadline: the instant a wait must end by, and
/// whether work asked for now is refused.
///
/// An operation that keeps time on a clock (a timeout, a hedge's delay, a retry's backoff)
/// honours only a deadline whose clock keeps the same time: its own, or any clock on real time
/// (``DeadlineClock/continuous`` and clocks on a ``DeadlineTimer``). A manual clock's instants
/// cannot be compared with another clock's (it stands still while real time runs), so a
/// deadline of another clock is ignored there. Every reader is called behind ``inUse``, so that a process
/// that never binds a deadline pays one load and a branch for it.
extension Deadline {
    /// The current deadline when its clock keeps `clock`'s time, else `nil`.
    static func current(on clock: DeadlineClock) -> Deadline? {
        guard let current, current.clock.keepsTime(with: clock) else { return nil }
        return current
    }

    /// The current deadline's instant when it is kept by `clock` and comes before `instant`:
    /// where a wait that would end at `instant` ends instead.
    @usableFromInline
    static func currentInstant(
        before instant: ContinuousClock.Instant, on clock: DeadlineClock
    )
        -> ContinuousClock.Instant?
    {
        guard let current = current(on: clock), current.instant < instant else { return nil }
        return current.instant
    }

    /// The error refusing work asked for now on `clock`: the current deadline's
    /// ``exceededError`` when it is kept by `clock` and has passed, else `nil`.
    static func refusal(on clock: DeadlineClock) -> FutureTimeoutError? {
        guard let current = current(on: clock), current.hasPassed else { return nil }
        return current.exceededError
    }

    /// The error refusing work that keeps no time of its own (a start, a limit's admission):
    /// the current deadline's ``exceededError`` when it has passed on its own clock, else `nil`.
    @usableFromInline
    static func refusal() -> FutureTimeoutError? {
        guard let current, current.hasPassed else { return nil }
        return current.exceededError
    }
}

extension Deadline {
    /// The current deadline kept by `clock`, held as an operation that runs for a while keeps
    /// it (see ``HeldDeadline``); `nil` without one.
    static func held(on clock: DeadlineClock) -> HeldDeadline? {
        guard let current = current(on: clock) else { return nil }
        return HeldDeadline(current)
    }
}

/// A request's deadline as a hedge or a retry holds it for its later decisions.
///
/// Why a class: in those operations' generic loops, which run unspecialised, an optional
/// `Deadline` or instant is moved through run-time value witnesses even when it is `nil`
/// (callgrind: about 950 instructions a hedged call with no deadline ever bound). An optional
/// reference is one word, `nil` off; holding a deadline costs one allocation, and only then.
final class HeldDeadline: Sendable {
    let instant: ContinuousClock.Instant
    let clock: DeadlineClock
    let exceededError: FutureTimeoutError

    init(_ deadline: Deadline) {
        instant = deadline.instant
        clock = deadline.clock
        exceededError = deadline.exceededError
    }

    /// Whether the deadline has passed on its clock.
    var hasPassed: Bool { clock.now >= instant }

    /// Whether something due `delay` from now would be due at or after the deadline.
    func isPassed(after delay: Duration) -> Bool { isPassed(after: delay, from: clock.now) }

    /// Whether the deadline has passed at `now`, an instant of its clock read by the caller.
    func hasPassed(at now: ContinuousClock.Instant) -> Bool { now >= instant }

    /// Whether something due `delay` after `now` (an instant of its clock read by the caller)
    /// would be due at or after the deadline.
    func isPassed(after delay: Duration, from now: ContinuousClock.Instant) -> Bool { now + delay >= instant }
}

extension Future {
    /// A future refused by the request's deadline: rejected with `error` before any work ran,
    /// and counted as observed.
    ///
    /// Why observed: a refusal is the request's own decision that its time is over, made for a
    /// consumer that has usually given up already (a fan-out decided by its first refused call
    /// drops the others unobserved). Reported as an unobserved failure, every request that ran
    /// out of time would print one per call it no longer made.
    @usableFromInline
    static func refused(by error: FutureTimeoutError) -> Future<Value> {
        let storage = FutureStorage<Value>.makeResolved(.rejected(error))
        // Created resolved on this thread: the mark needs no load of another thread's publish.
        storage.markFailureObserved()
        return Future(storage: storage)
    }
}
