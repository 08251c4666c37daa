/// `catch`: observe the failures that reach this point of a chain.
extension Future {
    /// Calls `body` with the error when the receiver fails, and returns the receiver itself, so
    /// the chain continues unchanged.
    ///
    /// - Parameters:
    ///   - context: Where `body` runs.
    ///   - includeIndirectErrors: Whether a cancellation's indirect error (a failure upstream,
    ///     carried down the chain) is reported too. When `false`, only this future's own
    ///     rejection is.
    ///   - body: Runs once, on `context`, when the receiver is rejected, or cancelled with an
    ///     indirect error and `includeIndirectErrors` is `true`. Never for a fulfilment or a
    ///     cancellation without an error.
    /// - Returns: the receiver (no new future is made).
    @inlinable
    @discardableResult
    public func `catch`<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using body: @escaping @Sendable (any Error) -> Void
    ) -> Future<Value> {
        storage.subscribe(.make(includeIndirectErrors ? .anyError(body) : .rejected(body), on: context))
        return self
    }
}
