/// Observing for the package's integrations' own bookkeeping: `package`, so never part of the API.
extension Future {
    /// ``whenResolved(on:_:)`` on `.inline`, without the callback context of this thread (a
    /// deadline, a service context): for a callback that reads none of them, such as
    /// PetalServiceLifecycle's drain forgetting a request.
    ///
    /// Why: with a deadline bound, ``whenResolved(on:_:)`` wraps the callback to run it inside
    /// that deadline, one more allocation and closure a subscription, which such a callback pays
    /// for nothing.
    @inlinable
    package func whenResolvedCarryingNothing(_ body: consuming @escaping @Sendable (Outcome<Value>) -> Void) {
        if let published = storage.enterIfResolved(on: .inline) {
            body(published.outcome)
            return storage.leaveResolved()
        }
        storage.subscribe(.resolved(consume body))
    }
}
