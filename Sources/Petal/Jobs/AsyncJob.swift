/// A job whose work is an `async` closure, run in a Swift task that is cancelled with the job.
///
/// ```swift
/// let thumbnail = AsyncJob<URL, Image> { url in
///     let data = try await session.data(from: url).0   // sees Task.isCancelled
///     return try Image(data: data)
/// }
/// let future = Future.start(running: thumbnail, with: url)
/// ```
///
/// Starting it starts an unstructured task (as `Task { }` does: on the global concurrent
/// executor, not inheriting the caller's cancellation). What the job does when the work:
/// - **returns**: completes with the value (its future is fulfilled);
/// - **throws** `CancellationError`: cancelled without an indirect error;
/// - **throws** anything else: fails with it (its future is rejected).
///
/// Cancelling the job (``Job/cancel(withIndirectError:)``, a pool's drain, a request on its
/// future) cancels the task: the work sees `Task.isCancelled`, and `Task.checkCancellation()`
/// throws. The job's future is cancelled at once, without waiting for the work to notice.
public final class AsyncJob<Input: Sendable, Output: Sendable>: Job<Input, Output>, @unchecked Sendable {
    // @unchecked: `work` is immutable and Sendable; `task` is guarded by its lock.
    private let work: @Sendable (Input) async throws -> Output
    private let priority: TaskPriority?
    private let task = PosixLock<Task<Void, Never>?>(nil)

    /// A job that runs `work` with its input in a new task when started.
    ///
    /// - Parameters:
    ///   - priority: The task's priority; `nil` to inherit the starting task's, as `Task` does.
    ///   - fileID: The creation site's file, named in diagnostics; leave the default.
    ///   - line: The creation site's line, named in diagnostics; leave the default.
    ///   - work: The job's work.
    public init(
        priority: TaskPriority? = nil, fileID: StaticString = #fileID, line: UInt = #line,
        _ work: @escaping @Sendable (Input) async throws -> Output
    ) {
        self.work = work
        self.priority = priority
        super.init(fileID: fileID, line: line)
    }

    /// Starts the task. Called by the `start` functions; see ``Job/start(with:)``.
    public override func start(with input: Input) {
        guard begin() else { return }
        let work = self.work
        let started = Task(priority: priority) { [self] in
            do {
                complete(with: try await work(input))
            } catch is CancellationError {
                cancel()
            } catch {
                fail(with: error)
            }
        }
        // Cancelled between `begin` and here: the hook found no task yet, so cancel it now.
        let cancelledAlready: Bool = task.withLock { stored in
            stored = started
            return state == .cancelled
        }
        if cancelledAlready { started.cancel() }
    }

    /// Cancels the task, if it started. See ``Job/wasCancelled(withIndirectError:)``.
    public override func wasCancelled(withIndirectError indirectError: (any Error)?) {
        task.withLock { $0 }?.cancel()
    }
}

extension Future {
    /// Runs `work` in a new Swift task as an ``AsyncJob`` and returns the job's future, so that
    /// a pool's drain or a cancellation request cancels the task.
    ///
    /// - Where and when: `work` starts at once in an unstructured task (as `Task { }` does).
    /// - Returns: a future fulfilled with what `work` returns; rejected with what it throws;
    ///   cancelled if the job is cancelled, or if `work` throws `CancellationError`; rejected
    ///   with the request's ``Deadline/exceededError``, and no task started, when the request's
    ///   deadline has passed here (as every job start is; see <doc:Deadlines>).
    @discardableResult
    public static func start(
        priority: TaskPriority? = nil, pool: CancellationPool? = nil,
        executingAsync work: @escaping @Sendable () async throws -> Value
    ) -> Future<Value> where Value: Sendable {
        start(running: AsyncJob<Void, Value>(priority: priority) { _ in try await work() }, pool: pool)
    }
}
