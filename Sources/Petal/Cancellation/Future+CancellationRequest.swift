import CPetal

/// Upstream cancellation: a consumer asks the producer of a future to stop (see
/// <doc:Cancellation>).
extension Future {
    /// Asks the work behind this future to cancel, on behalf of whoever holds this future.
    ///
    /// A request is a wish, not a resolution: the future resolves as its producer decides.
    /// What it reaches, on this thread, before this returns:
    /// - a **job's future**: the job's ``Job/attemptCancel()``;
    /// - a **promise's future**: the handlers its owner registered with
    ///   ``Promise/whenCancellationRequested(on:_:)`` (none: nothing happens);
    /// - a **chained future** whose step has not run: it is cancelled at once (without an
    ///   indirect error), so its closure never runs and its own dependents are cancelled by the
    ///   one failure rule; then, if it is linked to its upstream, it votes there: the upstream is
    ///   asked in turn once **every** one of its counted dependents has asked.
    ///
    /// Only the first request counts; a resolved future ignores requests. Costs nothing until
    /// used: futures nobody asks carry no extra allocation.
    public func requestCancellation() {
        storage.requestCancellation()
    }

    /// Whether a cancellation request has reached this future (directly, or by the votes of
    /// all its counted dependents).
    public var isCancellationRequested: Bool {
        storage.isCancellationRequested
    }
}

extension Promise {
    /// Registers `handler` to run when a consumer asks for the future's cancellation, for
    /// example to cancel the network request that would fulfil it.
    ///
    /// - Where and when: `handler` runs once on `context`, after the first request reaches the
    ///   future (with `.inline`, on the requesting thread before its request returns); at once,
    ///   on this thread, if one already has; never if the future resolves first (it is then
    ///   released, with what it captured).
    /// - The handler decides: it usually stops the work and calls ``cancel(withIndirectError:)``.
    ///   Nothing is cancelled for you.
    /// - Register before handing out the future: futures chained onto it before the first
    ///   registration are not linked to it, so their requests do not travel here.
    /// - Capture this promise weakly (`[weak promise]`): the future holds `handler` until the
    ///   first request or the resolution, so a handler that holds its own promise keeps it alive
    ///   while it is pending, and a promise its owner dropped is then never abandoned (its
    ///   future never resolves, and both are leaked). Or use ``cancelWhenRequested(on:stopping:)``,
    ///   which needs no reference to the promise.
    public func whenCancellationRequested<Context: ExecutionContext>(
        on context: Context = .inline, _ handler: consuming @escaping @Sendable () -> Void
    ) {
        // Consumed, to the node that keeps it: borrowed, each hand-over retained the closure
        // and released it after.
        let handler = CallbackContext.carrying(consume handler)
        let storage = future.storage
        storage.markPropagating()
        if Context.self == InlineExecutionContext.self {
            storage.addCancellationAction(handler)
        } else {
            storage.addCancellationAction { context.execute(handler) }
        }
    }
}

extension Promise {
    /// Cancels the future when a consumer asks for its cancellation, and runs `stop` to stop
    /// the work: the usual ``whenCancellationRequested(on:_:)`` handler, with nothing to capture.
    ///
    /// ```swift
    /// let promise = Promise<Reply>()
    /// let request = client.send(query) { promise.fulfil(with: $0) }
    /// promise.cancelWhenRequested { request.cancel() }
    /// return promise.future
    /// ```
    ///
    /// - Where and when: once, after the first request reaches the future (at once if one
    ///   already has; never if the future resolves first). The future is cancelled, without an
    ///   indirect error, on the requesting thread first, so its observers hear of it at once and
    ///   a `stop` that releases the last reference to this promise (the request's completion
    ///   handler, say) cannot have it abandoned; then `stop` runs on `context`.
    /// - Costs one small allocation (the future's cancellation record, which keeps the stop
    ///   itself when this is the promise's first use of cancellation, the usual case; a node
    ///   beside it otherwise), and no weak reference: a handler that captures
    ///   its promise weakly pays for the promise's weak-reference side table.
    /// - A resolution of this promise afterwards (a reply that raced the cancellation) changes
    ///   nothing and returns `false`, and is neither counted nor reported: the reply was on its
    ///   way when the consumer gave up, which no producer can prevent.
    @inlinable
    public func cancelWhenRequested<Context: ExecutionContext>(
        on context: Context = .inline, stopping stop: consuming @escaping @Sendable () -> Void
    ) {
        // The stop is held by the future's record until the first request or the resolution: a
        // cycle through whatever the stop captures (the promise, say) always ends, since a
        // future always resolves (a promise dropped unresolved cancels it).
        let stop = CallbackContext.carrying(consume stop)
        let stopping: @Sendable () -> Void
        if Context.self == InlineExecutionContext.self {
            stopping = stop
        } else {
            stopping = { context.execute(stop) }
        }
        future.storage.addProducerStop(stopping)
    }
}

extension Future {
    /// Whether the future has a cancellation record (someone used upstream cancellation on it),
    /// for tests.
    package var hasCancellationRecordForTests: Bool {
        storage.cancellationRecord != nil
    }

    /// How many counted dependents the future has, for tests.
    package var dependentCountForTests: Int {
        storage.cancellationDependentCount
    }
}
