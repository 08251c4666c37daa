import CPetal

/// The deadline bound to the running task or thread, and how it travels with callbacks.
///
/// Why a task-local: a request's handler is a task (or, on an event loop, a thread running it
/// to its first suspension), and everything it calls, `async` or not, runs inside it. Petal's
/// callbacks run elsewhere later; they carry the deadline current where they were handed over
/// (see ``CallbackContext``), so a step chained in the handler ends by the handler's deadline
/// even when it runs on the timer thread.
extension Deadline {
    /// The binding of the `async` ``withValue(_:operation:)-(_,()async->Result)``: it must
    /// survive suspensions, which may resume on another thread. Read through ``current``, which
    /// skips it while no deadline was ever bound in the process, and after this thread's slot.
    @TaskLocal
    static var bound: Deadline?

    /// The deadline bound where this runs (by ``withValue(_:operation:)-(_,()->Result)``, here or where the
    /// running callback was handed to Petal), or `nil` when there is none.
    ///
    /// Until a deadline is first bound in the process this is one load of a C global; after
    /// that, a thread-local read, and a task-local read when no synchronous binding is open on
    /// this thread.
    public static var current: Deadline? {
        guard let captured, !captured.isUnbounded else { return nil }
        return captured
    }

    /// What a callback captures: ``current``, or the unbounded marker of
    /// ``withoutValue(operation:)``, which is carried like a deadline so that the callback runs
    /// with no deadline wherever it runs.
    ///
    /// This thread's slot first: a synchronous binding is always the innermost one open here
    /// (it cannot suspend, so it opened after any `async` binding of the running task and
    /// closes before it), and it already holds the earlier of itself and what it found.
    static var captured: Deadline? {
        guard inUse else { return nil }
        return threadBound ?? bound
    }

    /// Whether a deadline was ever bound in this process: until then nothing reads or carries one.
    @inlinable
    static var inUse: Bool {
        petal_atomic_word_load(petal_callback_context_flag()) & CallbackContext.deadlinesBit != 0
    }

    /// Runs `operation` with the earlier of `deadline` and the current deadline bound, so that
    /// Petal's timeouts, hedges, limit waits and retries made inside it, and the callbacks and
    /// closures handed to Petal inside it, end by that deadline.
    ///
    /// The binding is this thread's while `operation` runs (it cannot suspend): a `Task` created
    /// inside it does not inherit it, as it would a task-local. Hand the task the deadline
    /// (`let deadline = Deadline.current`, then the `async` `withValue` inside the task), or
    /// bind it with the `async` form around the code that creates the task.
    public static func withValue<Result>(_ deadline: Deadline, operation: () throws -> Result) rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try bindingOnThisThread(deadline.earlier(of: captured), operation)
    }

    /// Runs the `async` `operation` with the earlier of `deadline` and the current deadline
    /// bound (see ``withValue(_:operation:)-(_,()->Result)``).
    ///
    /// A task-local binding, so that it holds across suspensions and in the child tasks and
    /// `Task`s that `operation` creates.
    public static func withValue<Result>(
        _ deadline: Deadline, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try await $bound.withValue(deadline.earlier(of: captured), operation: operation, isolation: isolation)
    }

    /// Runs `operation` with no deadline: for work started on a request's behalf that must
    /// outlive it (a cache fill, a write-behind), and so must not end with it.
    ///
    /// The callbacks and closures handed to Petal inside it carry "no deadline" as others carry
    /// a deadline, so they run with none even where a thread with a deadline runs them (a
    /// callback handed over with nothing captured runs with whatever the running thread has, as
    /// any thread- or task-local context does). Like the synchronous
    /// ``withValue(_:operation:)-(_,()->Result)``, a binding of this thread only.
    public static func withoutValue<Result>(operation: () throws -> Result) rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try bindingOnThisThread(.unbounded, operation)
    }

    /// The deadline a synchronous binding holds on this thread, or `nil` when none is open.
    private static var threadBound: Deadline? {
        let slot = petal_deadline_slot_current().unsafelyUnwrapped
        guard let clock = slot.pointee.clock else { return nil }
        // Retained here, unretained in the slot: the binding's frame keeps it alive meanwhile.
        return Deadline(
            bound: unsafeBitCast((slot.pointee.instant_low, slot.pointee.instant_high), to: ContinuousClock.Instant.self),
            clock: Unmanaged<DeadlineClock>.fromOpaque(clock).takeUnretainedValue())
    }

    /// Runs `body` with `deadline` (as it is, not shortened) in this thread's slot, and puts back
    /// what was there when `body` returns or throws: no allocation and no atomics, where a
    /// task-local binding allocates an item and, outside a task, reaches a thread-local fallback.
    static func bindingOnThisThread<Result>(_ deadline: Deadline, _ body: () throws -> Result) rethrows -> Result {
        let slot = petal_deadline_slot_current().unsafelyUnwrapped
        let saved = slot.pointee
        // ContinuousClock.Instant's two words as they are (a Duration's representation): an
        // exact round trip through `threadBound`, where components would divide.
        let instant = unsafeBitCast(deadline.instant, to: (UInt64, UInt64).self)
        slot.pointee = petal_deadline_slot(
            instant_low: instant.0, instant_high: instant.1, clock: Unmanaged.passUnretained(deadline.clock).toOpaque())
        // The slot's address stays valid: `body` is synchronous, so it returns on this thread.
        defer { slot.pointee = saved }
        // The slot does not retain the clock: `deadline` does, until `body` is done with it.
        return try withExtendedLifetime(deadline) { try body() }
    }
}

/// How a closure handed to Petal carries the deadline (see ``CallbackContext``): captured where
/// it is handed over, bound where it runs.
struct DeadlineCarrier: CallbackContextCarrier {
    func capture() -> (any Sendable)? {
        Deadline.captured
    }

    func run(with captured: any Sendable, _ body: () -> Void) {
        // The deadline as captured, not shortened by one bound where this runs: the closure
        // belongs to the request that handed it over, not to whatever thread runs it.
        bind(captured, body)
    }

    /// `captured`, opened: a comparison of its type's metadata with `Deadline`'s, where a
    /// dynamic cast walked the runtime's casting machinery for every callback.
    private func bind<Captured: Sendable>(_ captured: Captured, _ body: () -> Void) {
        // Only `capture()` makes the values this is given: always a `Deadline`.
        guard Captured.self == Deadline.self else { return body() }
        Deadline.bindingOnThisThread(unsafeBitCast(captured, to: Deadline.self), body)
    }
}
