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
        return CarriedDeadline.onThisThread().map(Deadline.init(carried:)) ?? bound
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
        CallbackContext.enableDeadlines()
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
        CallbackContext.enableDeadlines()
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
        CallbackContext.enableDeadlines()
        return try bindingOnThisThread(.unbounded, operation)
    }

    /// Runs `body` with `deadline` (as it is, not shortened) in this thread's slot, and puts back
    /// what was there when `body` returns or throws (see ``CarriedDeadline/bind(_:)``).
    static func bindingOnThisThread<Result>(_ deadline: Deadline, _ body: () throws -> Result) rethrows -> Result {
        try CarriedDeadline(deadline).bind(body)
    }
}

extension Deadline {
    /// `carried`, as `Deadline` reads the slot's words: `ContinuousClock.Instant`'s own two (its
    /// `Duration`'s representation), copied as they are, an exact round trip where components
    /// would divide.
    init(carried: CarriedDeadline) {
        self.init(
            bound: unsafeBitCast((carried.instantLow, carried.instantHigh), to: ContinuousClock.Instant.self),
            // Only `init(_:)` below fills a slot: its clock is always a `DeadlineClock`.
            clock: unsafeDowncast(carried.clock, to: DeadlineClock.self))
    }
}

extension CarriedDeadline {
    /// `deadline` in the slot's words (see ``Deadline/init(carried:)``).
    init(_ deadline: Deadline) {
        let instant = unsafeBitCast(deadline.instant, to: (UInt64, UInt64).self)
        self.init(instantLow: instant.0, instantHigh: instant.1, clock: deadline.clock)
    }
}

/// The running task's deadline for a capture on a thread whose slot is empty (see
/// `petal_swift_hooks.h`): the async ``Deadline/withValue(_:isolation:operation:)`` binds a
/// task-local, which only this floor names.
@_cdecl("petal_swift_deadline_task_bound")
func deadlineTaskBound(_ slot: UnsafeMutablePointer<petal_deadline_slot>) -> Int32 {
    guard let bound = Deadline.bound else { return 0 }
    let carried = CarriedDeadline(bound)
    // Unretained: the task-local binding holds the clock while the capture that called this
    // retains it.
    slot.pointee = petal_deadline_slot(
        instant_low: carried.instantLow, instant_high: carried.instantHigh,
        clock: Unmanaged.passUnretained(carried.clock).toOpaque())
    return 1
}
