import CPetal

/// Arrival order: slots taken by the answers as they come, for a completion handler that
/// captures the batch alone.
///
/// Why: a handler that captures a ``PromiseBatch/Slot`` (a reference and an index) captures two
/// words, and Swift boxes them in a context of the closure's own, one heap allocation a call;
/// a handler that captures one class reference uses it as its context. In the example service's
/// fan-out at N = 32, the box was 344 of the 570 instructions a backend call that the batch
/// paid above hand-written callbacks (callgrind, `PetalProbe` "service request N=32"). Where
/// the answers combine in any order (a sum, a set, a merge), the slot's index is not needed.
extension PromiseBatch {
    /// Fulfils the next slot no arrival has taken yet with `value`: ``all``'s values are then in
    /// the order the arrivals took their slots.
    ///
    /// ```swift
    /// let batch = PromiseBatch<Int>(count: backends.count)
    /// let calls = backends.map { backend in
    ///     backend.send(query) { reply in batch.fulfilNext(with: reply.count) }
    /// }
    /// batch.cancelWhenRequested { for call in calls { call.cancel() } }
    /// return batch.all.then { $0.reduce(0, +) }
    /// ```
    ///
    /// Each call takes a slot of its own, from any thread (a locked add hands them out), then
    /// resolves it as ``fulfil(_:with:)`` would. A slot already resolved by index is passed over
    /// for the next, so the two ways can share a batch, though a batch is clearer filled one way.
    /// Pair it with the batch's one stop, ``cancelWhenRequested(stopping:)``: a slot's own stop
    /// belongs to a producer that knows its index.
    ///
    /// - Returns: `true` if this call resolved a slot. `false` when every slot was taken (a
    ///   resolution too many, reported as ``fulfil(_:with:)`` reports a repeat), or when the
    ///   slot it took had been stopped (``all`` was given up on: not reported).
    @inlinable
    @discardableResult
    public func fulfilNext(with value: Value) -> Bool {
        var seen = PromiseBatchStorage<Value>.fulfilled
        while let index = storage.nextArrival() {
            seen = storage.fulfil(index, with: value, resolving: result)
            if seen == PromiseBatchStorage<Value>.pending { return true }
            if seen == PromiseBatchStorage<Value>.stopped { return false }
        }
        reportRepeat(.fulfilled, seen: seen)
        return false
    }

    /// Rejects the next slot no arrival has taken yet with `error`, as ``reject(_:with:)``
    /// rejects a slot: ``all`` is cancelled with `error` as its indirect error.
    /// - Returns: `true` if this call resolved a slot (see ``fulfilNext(with:)``).
    @discardableResult
    public func rejectNext(with error: any Error) -> Bool {
        failNext(.rejected, error: error)
    }

    /// Cancels the next slot no arrival has taken yet, as ``cancel(_:withIndirectError:)``
    /// cancels a slot.
    /// - Returns: `true` if this call resolved a slot (see ``fulfilNext(with:)``).
    @discardableResult
    public func cancelNext(withIndirectError indirectError: (any Error)? = nil) -> Bool {
        failNext(.cancelled, error: indirectError)
    }

    /// Resolves the next slot no arrival has taken yet with `outcome`, as ``fulfilNext(with:)``,
    /// ``rejectNext(with:)`` or ``cancelNext(withIndirectError:)``.
    /// - Returns: `true` if this call resolved a slot.
    @inlinable
    @discardableResult
    public func resolveNext(with outcome: Outcome<Value>) -> Bool {
        switch outcome {
        case .fulfilled(let value): fulfilNext(with: value)
        case .rejected(let error): rejectNext(with: error)
        case .cancelled(let indirectError): cancelNext(withIndirectError: indirectError)
        }
    }

    private func failNext(_ kind: OutcomeKind, error: (any Error)?) -> Bool {
        let failureSite = error == nil ? 0 : site.failureSite(of: [Value].self)
        var seen = PromiseBatchStorage<Value>.failed
        while let index = storage.nextArrival() {
            seen = storage.fail(index, error: error, resolving: result, failureSite: failureSite)
            if seen == PromiseBatchStorage<Value>.pending { return true }
            if seen == PromiseBatchStorage<Value>.stopped { return false }
        }
        reportRepeat(kind, seen: seen)
        return false
    }
}
