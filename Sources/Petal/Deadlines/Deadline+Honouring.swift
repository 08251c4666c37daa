/// What Petal's operations read of the current deadline: the instant a wait must end by, and
/// whether work asked for now is refused.
///
/// An operation that keeps time on a clock (a timeout, a hedge's delay, a retry's backoff)
/// honours only a deadline kept by the same clock: instants of different clocks cannot be
/// compared (a test's manual clock stands still while real time runs), so a deadline of
/// another clock is ignored there. Every reader is called behind ``inUse``, so that a process
/// that never binds a deadline pays one load and a branch for it.
extension Deadline {
    /// The current deadline when it is kept by `clock`, else `nil`.
    static func current(on clock: DeadlineClock) -> Deadline? {
        guard let current, current.clock === clock else { return nil }
        return current
    }

    /// The current deadline's instant when it is kept by `clock` and comes before `instant`:
    /// where a wait that would end at `instant` ends instead.
    @usableFromInline
    static func currentInstant(before instant: ContinuousClock.Instant, on clock: DeadlineClock)
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
