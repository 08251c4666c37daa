/// Starting jobs and closures: the heads of chains of work.
///
/// These are static methods of ``Future`` (`Future.start(running:with:)`), not free functions,
/// so that they never shadow a `start` method of your own types, and nothing here is named
/// `Task`. Every form returns a future at once; the work runs on the context you pass (`.inline`
/// by default: on this thread, before `start` returns).
///
/// A start is work begun for a request, so a request's ``Deadline`` that has passed where it is
/// asked for (``Deadline/current``, on its own clock: a start keeps no time) refuses it: the
/// closure or job never runs, and its future is rejected with the deadline's
/// ``Deadline/exceededError``. A step chained onto work (`then`, `recover`, …) is not refused:
/// it finishes work already begun, and the request's own timeout ends that (see
/// <doc:Deadlines>).
extension Future {
    /// Starts `job` with `input` on `context`, and returns the job's future.
    ///
    /// - Where and when: `job.start(with: input)` runs once on `context` (with `.inline`, on
    ///   this thread before this returns). The job is ``JobState/enqueued`` from now until then.
    /// - Returns: the job's ``Job/future``: fulfilled when the job completes, rejected when it
    ///   fails, cancelled when it is cancelled (for example by `pool`'s ``CancellationPool/drain()``).
    /// - A job already started (or finished) is not started again: the repeat is reported
    ///   through ``PetalDiagnostics/handler``, and its future is returned as it
    ///   is. A job already cancelled is not started, silently.
    /// - A request's deadline that has passed here refuses the start: the job fails with the
    ///   deadline's ``Deadline/exceededError`` and `start(with:)` is never called.
    ///
    /// - Parameters:
    ///   - job: The job to start.
    ///   - input: The job's input.
    ///   - context: Where to call `start(with:)`.
    ///   - pool: A pool to add the job to, so that draining it cancels the job.
    @inlinable
    @discardableResult
    public static func start<Input, Context: ExecutionContext>(
        running job: Job<Input, Value>, with input: Input, on context: Context = .inline,
        pool: CancellationPool? = nil
    ) -> Future<Value> {
        pool?.add(job)
        job.launch(with: input, on: context)
        return job.future
    }

    /// Starts `job`, which takes no input, on `context`, and returns the job's future, as
    /// `start(running:with:on:pool:)` does.
    @inlinable
    @discardableResult
    public static func start<Context: ExecutionContext>(
        running job: Job<Void, Value>, on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<Value> {
        start(running: job, with: (), on: context, pool: pool)
    }

    /// Runs `body` on `context` and returns a future of its result.
    ///
    /// - Where and when: `body` runs once on `context` (with `.inline`, on this thread before
    ///   this returns).
    /// - Returns: a future fulfilled with what `body` returns, or rejected with what it throws;
    ///   rejected with the request's ``Deadline/exceededError``, and `body` never run, when the
    ///   request's deadline has passed here.
    ///
    /// For a `body` that returns a future (work that is itself asynchronous), use
    /// ``startFollowing(on:executing:)``: a future of that future's outcome. The two have
    /// different names because Swift picks an overload before it reads a closure of several
    /// statements, so a `start` overloaded on the closure's result type took such a closure
    /// that returns nothing for the future form, and failed to compile with "missing return".
    @inlinable
    @discardableResult
    public static func start<Context: ExecutionContext>(
        on context: Context = .inline, executing body: @escaping @Sendable () throws -> Value
    ) -> Future<Value> {
        if Deadline.inUse, let refusal = Deadline.refusal() { return .refused(by: refusal) }
        let storage = FutureStorage<Value>.makePending()
        // The storage is resolved only by this one run, and a Future of a non-Sendable value
        // cannot leave this thread, so handing it to the context is sound.
        let target = UncheckedSendableBox(storage)
        context.execute({ target.value.settle(body) }, resolving: storage)
        return Future(storage: storage)
    }

    /// Runs `body` on `context` and returns a future that follows the future `body` returns: a
    /// hop onto a context (an event loop, say) for work that is itself asynchronous, with
    /// requests passed on.
    ///
    /// ```swift
    /// // Fan out from the event loop whose timers answer the calls, as NIO's `flatSubmit` does.
    /// let reply = Future.startFollowing(on: .eventLoop(loop)) {
    ///     Future.fulfillingWhen(backends.map { $0.call(on: loop) }).timeout(after: .milliseconds(20))
    /// }
    /// let sums = try await reply.value(cancellingUpstream: true)
    /// ```
    ///
    /// - Where and when: `body` runs once on `context` (with `.inline`, on this thread before
    ///   this returns), unless the returned future was cancelled by a request before it could
    ///   run: then it never runs.
    /// - Returns: a future resolved exactly as the future `body` returns (fulfilled, rejected or
    ///   cancelled alike: that future is this work); rejected with what `body` throws; rejected
    ///   with the request's ``Deadline/exceededError``, and `body` never run, when the request's
    ///   deadline has passed here.
    /// - Cancellation: the returned future passes requests on from the start, as a job's does.
    ///   A request on it (a task awaiting it with `cancellingUpstream: true` that is cancelled,
    ///   a combinator or a timeout over it that gives up):
    ///   - before `body` begins: cancels it at once, and `body` never runs (a gate in the
    ///     future's record decides between the two, so `body` never begins once the future is
    ///     cancelled);
    ///   - once `body` has begun: votes on the future `body` returns, as a chained future votes
    ///     on its receiver (when `body` returns, if it has not yet), and the returned future
    ///     resolves as that one does; if that future cannot be asked (it passes no requests
    ///     on), the returned future is cancelled when `body` returns.
    ///   So one `await` covers the hop and the work, and cancelling the awaiting task still
    ///   reaches the work.
    /// - Costs the returned future and its cancellation record, and the hand-over to `context`.
    @inlinable
    @discardableResult
    public static func startFollowing<Context: ExecutionContext>(
        on context: Context = .inline, executing body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        if Deadline.inUse, let refusal = Deadline.refusal() { return .refused(by: refusal) }
        let storage = FutureStorage<Value>.makePending()
        // Propagating from the start, so that whoever awaits or combines it now is counted; a
        // request before `body` begins cancels it, and `body` never runs (the start gate).
        storage.addStartGate()
        let target = UncheckedSendableBox(storage)
        context.execute({ target.value.followStarted(body) }, resolving: storage)
        return Future(storage: storage)
    }

    /// Starts every job of `jobs` with the same `input` on `context`, and returns a future of
    /// all their outputs.
    ///
    /// - Where and when: each job's `start(with:)` runs once on `context`, in array order.
    /// - Returns: a future fulfilled with the outputs, in the order of `jobs`, once every job
    ///   completed; cancelled as soon as one job fails or is cancelled, with that job's error
    ///   (its rejection error, or its indirect error) as the indirect error. That first failure
    ///   also asks every other job to cancel, by a vote on its future (see <doc:Cancellation>):
    ///   a job nobody else depends on gets its ``Job/attemptCancel()`` before the group's
    ///   observers run. A request on the group's future cancels it and asks the jobs the same
    ///   way. With no jobs: fulfilled with an empty array.
    @inlinable
    @discardableResult
    public static func start<Input, Output, Context: ExecutionContext>(
        running jobs: [Job<Input, Output>], with input: Input, on context: Context = .inline,
        pool: CancellationPool? = nil
    ) -> Future<Value> where Value == [Output] {
        let group = Job.group(jobs, pool: pool)
        for job in jobs { job.launch(with: input, on: context) }
        return group
    }

    /// Starts every job of `jobs`, which take no input, as `start(running:with:on:pool:)`
    /// for a group does.
    @inlinable
    @discardableResult
    public static func start<Output, Context: ExecutionContext>(
        running jobs: [Job<Void, Output>], on context: Context = .inline, pool: CancellationPool? = nil
    ) -> Future<Value> where Value == [Output] {
        start(running: jobs, with: (), on: context, pool: pool)
    }
}

extension Job {
    /// Enqueues the job and calls `start(with:)` on `context`; a repeat is reported and ignored.
    @usableFromInline
    final func launch<Context: ExecutionContext>(with input: Input, on context: Context) {
        guard enqueue() else { return }
        // Refused after the job was claimed, so that a start refused is still a start (no
        // repeat), and its future fails as the job's own work would.
        if Deadline.inUse, let refusal = Deadline.refusal() {
            fail(with: refusal)
            return
        }
        if Context.self == InlineExecutionContext.self {
            start(with: input)
            return
        }
        // The input belongs to this one start; it is handed over, never shared.
        let handOff = UncheckedSendableBox(input)
        context.execute(
            { self.start(with: handOff.value) },
            // A start the context dropped never comes: the job is cancelled instead.
            // The context's type, not the context: see `dropped(_:by:)`.
            ifDropped: { [weak self] in self?.cancel(withIndirectError: DroppedWorkError(droppedBy: Context.self)) })
    }

    /// The future of a group of jobs: their outputs once all complete, a combination like
    /// `fulfillingWhen`: the first failure gives up on the other jobs, and a request on the
    /// group's future cancels it and gives up on them too. Giving up is a cancellation vote on
    /// each job's future (see <doc:Cancellation>): a job nobody else depends on is asked at once
    /// (its ``attemptCancel()``), before the group resolves and its observers run; a job whose
    /// future another consumer chained onto runs on for that consumer.
    ///
    /// The group holds each job's future, not the job: a job dropped unfinished is abandoned, its
    /// future cancelled, and the group with it.
    @usableFromInline
    static func group(_ jobs: [Job<Input, Output>], pool: CancellationPool?) -> Future<[Output]> {
        if let pool { pool.add(contentsOf: jobs) }
        return Future<[Output]>.fulfillingWhen(jobs.map(\.future))
    }
}
