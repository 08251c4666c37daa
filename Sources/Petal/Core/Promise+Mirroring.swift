/// Resolving a promise from another future.
extension Promise {
    /// Resolves this promise's future exactly as `source` resolves: fulfilled, rejected or
    /// cancelled alike.
    ///
    /// The resolution happens on the thread that resolves `source` (or on this thread, before
    /// this returns, if `source` is already resolved). Until then `source` holds this promise,
    /// so the promise is not abandoned while `source` is pending even if you drop it; if
    /// `source` itself can never resolve (its own promise was dropped), it is cancelled, and so
    /// is this promise's future. If this promise is resolved some other way first, the later
    /// resolution from `source` is ignored and reported like any repeat. Passing the promise's
    /// own future does nothing (it could never resolve itself).
    ///
    /// Never pass a future that waits on this promise, such as `promise.future.then { ... }`:
    /// it can only resolve after this promise does, so neither ever resolves, and since that
    /// source holds this promise while it is pending, the promise is never abandoned either;
    /// both stay in memory for good. Petal sees only the direct case above: a cycle through
    /// chained futures leaves no trace it could check without slowing every step.
    @inlinable
    public func resolve(from source: Future<Value>) {
        guard source.storage !== future.storage else { return }
        source.storage.subscribe(.promise(self))
    }
}
