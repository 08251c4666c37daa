import CPetal

/// The deadline bound to the running task or thread, and how it travels with callbacks.
///
/// Why a task-local: a request's handler is a task (or, on an event loop, a thread running it
/// to its first suspension), and everything it calls, `async` or not, runs inside it. Petal's
/// callbacks run elsewhere later; they carry the deadline current where they were handed over
/// (see ``CallbackContext``), so a step chained in the handler ends by the handler's deadline
/// even when it runs on the timer thread.
extension Deadline {
    /// The binding itself: read through ``current``, which skips it while no deadline was ever
    /// bound in the process.
    @TaskLocal
    static var bound: Deadline?

    /// The deadline bound where this runs (by ``withValue(_:operation:)-(_,()->Result)``, here or where the
    /// running callback was handed to Petal), or `nil` when there is none.
    ///
    /// Until a deadline is first bound in the process this is one load of a C global; after
    /// that, a task-local read.
    public static var current: Deadline? {
        guard inUse, let bound, !bound.isUnbounded else { return nil }
        return bound
    }

    /// What a callback captures: ``current``, or the unbounded marker of
    /// ``withoutValue(operation:)``, which is carried like a deadline so that the callback runs
    /// with no deadline wherever it runs.
    static var captured: Deadline? {
        guard inUse else { return nil }
        return bound
    }

    /// Whether a deadline was ever bound in this process: until then nothing reads or carries one.
    @inlinable
    static var inUse: Bool {
        petal_atomic_word_load(petal_callback_context_flag()) & CallbackContext.deadlinesBit != 0
    }

    /// Runs `operation` with the earlier of `deadline` and the current deadline bound, so that
    /// Petal's timeouts, hedges, limit waits and retries made inside it, and the callbacks and
    /// closures handed to Petal inside it, end by that deadline.
    public static func withValue<Result>(_ deadline: Deadline, operation: () throws -> Result) rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try $bound.withValue(deadline.earlier(of: bound), operation: operation)
    }

    /// Runs the `async` `operation` with the earlier of `deadline` and the current deadline
    /// bound (see ``withValue(_:operation:)-(_,()->Result)``).
    public static func withValue<Result>(
        _ deadline: Deadline, isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try await $bound.withValue(deadline.earlier(of: bound), operation: operation, isolation: isolation)
    }

    /// Runs `operation` with no deadline: for work started on a request's behalf that must
    /// outlive it (a cache fill, a write-behind), and so must not end with it.
    ///
    /// The callbacks and closures handed to Petal inside it carry "no deadline" as others carry
    /// a deadline, so they run with none even where a thread with a deadline runs them (a
    /// callback handed over with nothing captured runs with whatever the running thread has, as
    /// any thread- or task-local context does).
    public static func withoutValue<Result>(operation: () throws -> Result) rethrows -> Result {
        CallbackContext.enableDeadlines(carriedBy: DeadlineCarrier())
        return try $bound.withValue(.unbounded, operation: operation)
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
        guard let deadline = captured as? Deadline else { return body() }
        Deadline.$bound.withValue(deadline) { body() }
    }
}
