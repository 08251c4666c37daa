/// What the package's own prototypes (the `PetalPrototypes` target, measured by the benchmarks)
/// need of a future's storage: `package`, so never part of the API.
extension Future {
    /// A pending future that nothing but its maker can resolve.
    @inlinable
    package static func makePendingForPrototype() -> Future {
        Future(storage: .makePending())
    }

    /// Fulfils this future, as a promise would; returns whether this call resolved it.
    @inlinable
    package func fulfilForPrototype(with value: Value) -> Bool {
        storage.fulfil(with: value)
    }

    /// Runs `stop` on the requesting thread once the first cancellation request reaches this
    /// future, after cancelling it, as `Promise.cancelWhenRequested(stopping:)` does inline.
    @inlinable
    package func cancelWhenRequestedForPrototype(stopping stop: @escaping @Sendable () -> Void) {
        storage.addProducerStop(CallbackContext.carrying(stop))
    }

    /// Applies the abandoned-promise rule for a promise created at `fileID`:`line` and dropped:
    /// cancels this future if it is still pending, and reports it.
    package func abandonForPrototype(fileID: StaticString, line: UInt) {
        if !storage.isClaimed { PromiseSite(fileID: fileID, line: line).abandon(storage) }
    }
}
