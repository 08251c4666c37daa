import CPetal

/// Swift concurrency: awaiting a future, and making a future from an `async` closure.
///
/// Awaiting never blocks a thread. A task awaiting ``Future/value`` of a pending future parks
/// its continuation in the parking table (``ParkingLot``), which the resolution wakes and the
/// task's cancellation takes back out, so a wait given up leaves nothing in the future; one
/// awaiting ``Future/outcome``, which a cancellation does not end, suspends on a callback.
/// Awaiting an already resolved future returns at once, without suspending and without leaving
/// the caller's executor.
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
    ///   `CancellationError` at once. The future is not affected, and keeps nothing of the
    ///   wait: tasks may give up on a future that never resolves as often as they like. To also
    ///   ask the future's work to stop when the task is cancelled (a request whose client went
    ///   away), await ``value(cancellingUpstream:)`` instead.
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

    /// The slow path of ``value``: the future was pending. The task parks in the parking table
    /// rather than in the future, so a cancelled wait leaves nothing behind.
    @usableFromInline
    nonisolated(nonsending) func suspendForValue() async throws -> Value {
        let parked = ParkedValue(storage)
        return try await withTaskCancellationHandler {
            try await withValueContinuation { continuation in parked.park(continuation) }
        } onCancel: {
            parked.cancel()
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

// Debug builds check every continuation: a second resume traps and a dropped one is logged, so
// the tests would catch a broken one-shot. Release builds trust the gate.
#if DEBUG
    /// The continuation a task awaiting ``Future/value`` parks.
    private typealias ValueContinuation<Value> = CheckedContinuation<Value, any Error>
    /// The continuation a task awaiting ``Future/outcome`` parks.
    private typealias OutcomeContinuation<Value> = CheckedContinuation<Outcome<Value>, Never>
#else
    /// The continuation a task awaiting ``Future/value`` parks.
    private typealias ValueContinuation<Value> = UnsafeContinuation<Value, any Error>
    /// The continuation a task awaiting ``Future/outcome`` parks.
    private typealias OutcomeContinuation<Value> = UnsafeContinuation<Outcome<Value>, Never>
#endif

private nonisolated(nonsending) func withValueContinuation<Value>(
    _ body: (ValueContinuation<Value>) -> Void
) async throws -> Value {
    #if DEBUG
        try await withCheckedThrowingContinuation(body)
    #else
        try await withUnsafeThrowingContinuation(body)
    #endif
}

private nonisolated(nonsending) func withOutcomeContinuation<Value>(
    _ body: (OutcomeContinuation<Value>) -> Void
) async -> Outcome<Value> {
    #if DEBUG
        await withCheckedContinuation(body)
    #else
        await withUnsafeContinuation(body)
    #endif
}

/// What became of a task that tried to park (see `ParkedValue.park`).
private enum ParkAttempt { case parked, cancelled, resolved }

/// A task awaiting ``Future/value`` of a pending future, parked in the parking table (see
/// ``ParkingLot``): the wake of the future's resolution and the task's cancellation race to
/// resume it, and whoever takes it out of its bucket, under the bucket's lock, does.
///
/// A cancelled wait takes itself out of the bucket, so nothing of it stays behind: awaiting a
/// future that never resolves from tasks that are cancelled holds no memory.
///
/// `@unchecked Sendable`: `continuation` and `cancelledEarly` are only touched with the bucket's
/// lock held; `storage` never changes. A pthread mutex, not an atomic: ThreadSanitizer sees its
/// ordering, and the continuation is plain memory handed from the parking task to the winner.
private final class ParkedValue<Value: Sendable>: ParkedTask, @unchecked Sendable {
    let storage: FutureStorage<Value>
    private let bucket: ParkingBucket
    private var continuation: ValueContinuation<Value>?
    /// The task was cancelled before it parked.
    private var cancelledEarly = false

    init(_ storage: FutureStorage<Value>) {
        self.storage = storage
        bucket = ParkingLot.bucket(for: storage.cell)
    }

    var cell: UnsafeMutablePointer<petal_cell> { storage.cell }

    /// Parks the task on `continuation`, or resumes it at once: cancelled already, or the
    /// outcome is out.
    func park(_ continuation: ValueContinuation<Value>) {
        let now: ParkAttempt = bucket.monitor.withLock {
            if cancelledEarly { return .cancelled }
            self.continuation = continuation
            if bucket.parkLocked(self) { return .parked }
            self.continuation = nil
            return .resolved
        }
        // Resumed outside the lock: resuming may run the task at once on this thread.
        switch now {
        case .parked: break
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .resolved: continuation.resume(with: Result { try storage.peek().unsafelyUnwrapped.get() })
        }
    }

    /// The wake took the task out of its bucket: resume it with the outcome.
    func resumeResolved() {
        let continuation = bucket.monitor.withLock { self.continuation.take() }
        continuation?.resume(with: Result { try storage.peek().unsafelyUnwrapped.get() })
    }

    /// The task was cancelled: take it out of its bucket and resume it with `CancellationError`,
    /// unless the wake took it first; before it parks, tell it not to.
    func cancel() {
        let continuation: ValueContinuation<Value>? = bucket.monitor.withLock {
            guard let continuation = self.continuation else {
                cancelledEarly = true
                return nil
            }
            guard bucket.removeLocked(self) else { return nil }  // the wake has it
            self.continuation = nil
            return continuation
        }
        continuation?.resume(throwing: CancellationError())
    }
}
