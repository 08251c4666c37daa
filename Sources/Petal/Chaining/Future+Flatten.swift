/// Flattening: a future of a future becomes a future of the inner value.
extension Future {
    /// The inner future's outcome, once the outer future delivers it.
    ///
    /// - Returns: a future resolved exactly as the inner future (fulfilled, rejected or
    ///   cancelled alike), once the receiver is fulfilled with it; cancelled, with the
    ///   receiver's error as its indirect error, when the receiver is rejected or cancelled.
    ///   No closure of yours runs, so there is no context to choose.
    @inlinable
    public func flattened<Inner>() -> Future<Inner> where Value == Future<Inner> {
        storage.chain(FlattenStep<Inner>())
    }
}

/// The step of `flattened()`.
@usableFromInline
struct FlattenStep<Inner>: ChainStep {
    @inlinable
    init() {}

    @inlinable
    var context: InlineExecutionContext { .inline }

    @inlinable
    func run(upstream: FutureStorage<Future<Inner>>, kind: OutcomeKind, downstream: FutureStorage<Inner>) {
        guard kind == .fulfilled else {
            downstream.cancel(following: upstream)
            return
        }
        upstream.value.storage.subscribe(.forward(downstream))
    }
}
