/// Awaiting a future with cancellation travelling upstream.
extension Future where Value: Sendable {
    /// The future's value, once it resolves, as ``value`` is; and if `cancellingUpstream` is
    /// `true`, cancelling the awaiting task also asks for the future's cancellation.
    ///
    /// - With `cancellingUpstream: false`: exactly ``value``.
    /// - With `true`: the awaiting task counts as one dependent of the future (if its producer
    ///   can be asked: a job, a promise with a cancellation handler, or a chain onto one). When
    ///   the task is cancelled while the future is pending, it throws `CancellationError` at once
    ///   and votes for the future's cancellation: the producer is asked once every counted
    ///   dependent (other awaiting tasks, chained futures) has asked. A future whose producer
    ///   cannot be asked is left alone.
    ///
    /// An already resolved future returns (or throws) at once, without suspending.
    nonisolated(nonsending) public func value(cancellingUpstream: Bool) async throws -> Value {
        guard cancellingUpstream, storage.propagatesRequests else { return try await value }
        if let outcome = storage.peek() { return try outcome.get() }
        let counted = storage.addDependent()
        let storage = UncheckedSendableBox(self.storage)
        return try await withTaskCancellationHandler {
            do {
                return try await value
            } catch is FutureCancelledError where Task.isCancelled {
                // Our own vote cancelled the future: report the task's cancellation, as
                // `value` does for a task cancelled while waiting.
                throw CancellationError()
            }
        } onCancel: {
            if counted { storage.value.receiveVote() }
        }
    }
}
