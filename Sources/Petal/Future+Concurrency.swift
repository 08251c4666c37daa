/// Swift concurrency: awaiting a future, and making a future from an `async` closure.
///
/// Awaiting never blocks a thread: a task that awaits a pending future suspends on a
/// continuation that one of the future's callbacks resumes. Awaiting an already resolved future
/// returns at once, without suspending and without leaving the caller's executor.
extension Future where Value: Sendable {
    /// The future's value, once it resolves; throws if it is rejected or cancelled, or if the
    /// awaiting task is cancelled first.
    ///
    /// - Resolved already: returns the value (or throws) at once, without suspending, even in a
    ///   cancelled task: nothing needs waiting for.
    /// - Pending: suspends the task without blocking a thread, until the future resolves or the
    ///   task is cancelled, whichever comes first. The task then continues on its own executor
    ///   (for an actor-isolated caller, on that actor).
    ///
    /// What it returns or throws:
    /// - **fulfilled**: returns the value;
    /// - **rejected**: throws the rejection error;
    /// - **cancelled**: throws a ``FutureCancelledError`` carrying the indirect error, as
    ///   ``Outcome/get()`` does;
    /// - **the awaiting task is cancelled** while the future is pending: throws
    ///   `CancellationError` at once. The future is not affected; its callback for this wait
    ///   stays subscribed until it resolves, then does nothing (it no longer holds the task).
    @inlinable
    nonisolated(nonsending) public var value: Value {
        get async throws {
            if let outcome = storage.peek() { return try outcome.get() }
            return try await suspendForValue()
        }
    }

    /// The future's outcome, once it resolves. Never throws: errors and cancellations are in the
    /// outcome.
    ///
    /// - Resolved already: returns at once, without suspending.
    /// - Pending: suspends the task without blocking a thread until the future resolves, then
    ///   continues on the task's own executor.
    ///
    /// Cancelling the awaiting task does **not** end the wait: the outcome describes the future,
    /// and a cancelled task has no outcome of the future to report, so this waits for it, as
    /// `Task.result` does. To stop waiting when the task is cancelled, await ``value`` instead.
    @inlinable
    nonisolated(nonsending) public var outcome: Outcome<Value> {
        get async {
            if let outcome = storage.peek() { return outcome }
            return await suspendForOutcome()
        }
    }

    /// A future resolved by `operation`, which runs in a new unstructured task, as with
    /// `Task { ... }`: on the global concurrent executor (or on the operation's actor, if it is
    /// isolated to one), inheriting the current task's priority (unless `priority` is given) and
    /// task-local values, but not its cancellation.
    ///
    /// What the future does when `operation`:
    /// - **returns** a value: fulfilled with it;
    /// - **throws** `CancellationError`: cancelled *without* an indirect error (a cancellation is
    ///   not a failure, and the error carries nothing more);
    /// - **throws** a ``FutureCancelledError`` (for example from awaiting ``value`` of a
    ///   cancelled future): cancelled with that error's indirect error, so the cancellation
    ///   passes through unchanged;
    /// - **throws** any other error: rejected with it.
    ///
    /// Where callbacks run: the future resolves on the thread the task finishes on, a thread of
    /// Swift's cooperative pool, and its inline callbacks run there, before the task ends. Keep
    /// them short or pass a queue, as a blocked cooperative thread slows every task.
    ///
    /// Nothing cancels the task: a future has no consumer-side cancellation. If `operation`
    /// never returns, the future stays pending.
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` to inherit the current one, as `Task` does.
    ///   - operation: The work that produces the value.
    public init(priority: TaskPriority? = nil, _ operation: @escaping @Sendable () async throws -> Value) {
        let future = Future(storage: .makePending())
        Task(priority: priority) {
            let storage = future.storage
            do {
                _ = storage.fulfil(with: try await operation())
            } catch is CancellationError {
                _ = storage.fail(.cancelled, error: nil)
            } catch let cancelled as FutureCancelledError {
                _ = storage.fail(.cancelled, error: cancelled.indirectError)
            } catch {
                _ = storage.fail(.rejected, error: error)
            }
        }
        self = future
    }

    /// The slow path of ``value``: the future was pending.
    @usableFromInline
    nonisolated(nonsending) func suspendForValue() async throws -> Value {
        let gate = ContinuationGate<Value>()
        return try await withTaskCancellationHandler {
            try await withValueContinuation { continuation in
                // Already cancelled: the handler ran first and closed the gate; do not subscribe.
                guard gate.park(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                storage.subscribe(.resolved { outcome in gate.resume(with: outcome) })
            }
        } onCancel: {
            gate.cancel()
        }
    }

    /// The slow path of ``outcome``: the future was pending.
    @usableFromInline
    nonisolated(nonsending) func suspendForOutcome() async -> Outcome<Value> {
        // Only the callback resumes (cancellation is ignored), so no gate is needed.
        await withOutcomeContinuation { continuation in
            storage.subscribe(.resolved { outcome in continuation.resume(returning: outcome) })
        }
    }
}

#if DEBUG
    // Debug builds check every continuation: a second resume traps and a dropped one is logged,
    // so the tests would catch a broken one-shot. Release builds trust the gate.

    /// The continuation a task awaiting ``Future/value`` parks.
    private typealias ValueContinuation<Value> = CheckedContinuation<Value, any Error>
    /// The continuation a task awaiting ``Future/outcome`` parks.
    private typealias OutcomeContinuation<Value> = CheckedContinuation<Outcome<Value>, Never>

    private nonisolated(nonsending) func withValueContinuation<Value>(
        _ body: (ValueContinuation<Value>) -> Void
    ) async throws -> Value {
        try await withCheckedThrowingContinuation(body)
    }

    private nonisolated(nonsending) func withOutcomeContinuation<Value>(
        _ body: (OutcomeContinuation<Value>) -> Void
    ) async -> Outcome<Value> {
        await withCheckedContinuation(body)
    }
#else
    /// The continuation a task awaiting ``Future/value`` parks.
    private typealias ValueContinuation<Value> = UnsafeContinuation<Value, any Error>
    /// The continuation a task awaiting ``Future/outcome`` parks.
    private typealias OutcomeContinuation<Value> = UnsafeContinuation<Outcome<Value>, Never>

    private nonisolated(nonsending) func withValueContinuation<Value>(
        _ body: (ValueContinuation<Value>) -> Void
    ) async throws -> Value {
        try await withUnsafeThrowingContinuation(body)
    }

    private nonisolated(nonsending) func withOutcomeContinuation<Value>(
        _ body: (OutcomeContinuation<Value>) -> Void
    ) async -> Outcome<Value> {
        await withUnsafeContinuation(body)
    }
#endif

/// The one-shot between a future's callback and a task's cancellation handler, which race to
/// resume the same continuation: exactly one of them takes it.
///
/// A pthread mutex rather than an atomic: ThreadSanitizer cannot see the ordering of
/// `Synchronization.Atomic`, and the continuation itself is plain memory handed from the
/// parking task to whichever side wins, so it must be ordered by something TSan understands.
/// The lock is taken at most three times per wait, never on the already-resolved path.
private struct ContinuationGate<Value: Sendable>: Sendable {
    private enum State {
        /// Neither parked nor cancelled yet.
        case open
        /// The task is suspended on this continuation; the first of resume and cancel takes it.
        case parked(ValueContinuation<Value>)
        /// The task was cancelled before it parked.
        case cancelled
        /// The continuation was taken; nothing more happens.
        case closed
    }

    private let state = PosixLock(State.open)

    init() {}

    /// Stores the continuation, unless the task was already cancelled.
    ///
    /// - Returns: `true` if parked; `false` if cancelled, in which case the caller resumes the
    ///   continuation with `CancellationError` itself.
    func park(_ continuation: ValueContinuation<Value>) -> Bool {
        state.withLock { state in
            guard case .open = state else {
                state = .closed
                return false
            }
            state = .parked(continuation)
            return true
        }
    }

    /// Resumes the parked task with the future's outcome, unless cancellation took it first.
    func resume(with outcome: Outcome<Value>) {
        // Resumed outside the lock: resuming may run the task at once on this thread.
        take()?.resume(with: Result { try outcome.get() })
    }

    /// Resumes the parked task with `CancellationError`, or, before it parks, tells it not to.
    func cancel() {
        let continuation: ValueContinuation<Value>? = state.withLock { state in
            switch state {
            case .open:
                state = .cancelled
                return nil
            case .parked(let continuation):
                state = .closed
                return continuation
            case .cancelled, .closed:
                return nil
            }
        }
        continuation?.resume(throwing: CancellationError())
    }

    /// Takes the parked continuation, leaving the gate closed.
    private func take() -> ValueContinuation<Value>? {
        state.withLock { state in
            guard case .parked(let continuation) = state else { return nil }
            state = .closed
            return continuation
        }
    }
}
