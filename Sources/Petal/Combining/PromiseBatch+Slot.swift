extension PromiseBatch {
    /// One slot of a ``PromiseBatch``: what a completion handler captures to resolve it, as it
    /// would capture a ``Promise``.
    ///
    /// ```swift
    /// let slot = batch[index]
    /// backend.send(query) { reply in slot.fulfil(with: reply) }
    /// ```
    ///
    /// A handle keeps its batch alive, so ``PromiseBatch/all`` is abandoned only once no handle
    /// is left to resolve it. Copying a handle copies a reference and an index.
    public struct Slot {
        /// The batch the slot belongs to.
        public let batch: PromiseBatch<Value>

        /// The slot's place in the batch, and of its value in ``PromiseBatch/all``.
        public let index: Int

        @usableFromInline
        init(batch: PromiseBatch<Value>, index: Int) {
            self.batch = batch
            self.index = index
        }

        /// Fulfils the slot with `value`, as ``PromiseBatch/fulfil(_:with:)``.
        /// - Returns: `true` if this call resolved the slot.
        @inlinable
        @discardableResult
        public func fulfil(with value: Value) -> Bool {
            batch.fulfil(index, with: value)
        }

        /// Rejects the slot with `error`, as ``PromiseBatch/reject(_:with:)``.
        /// - Returns: `true` if this call resolved the slot.
        @discardableResult
        public func reject(with error: any Error) -> Bool {
            batch.reject(index, with: error)
        }

        /// Cancels the slot, as ``PromiseBatch/cancel(_:withIndirectError:)``.
        /// - Returns: `true` if this call resolved the slot.
        @discardableResult
        public func cancel(withIndirectError indirectError: (any Error)? = nil) -> Bool {
            batch.cancel(index, withIndirectError: indirectError)
        }

        /// Resolves the slot with `outcome`, as ``PromiseBatch/resolve(_:with:)``.
        /// - Returns: `true` if this call resolved the slot.
        @inlinable
        @discardableResult
        public func resolve(with outcome: Outcome<Value>) -> Bool {
            batch.resolve(index, with: outcome)
        }

        /// Runs `stop` if ``PromiseBatch/all`` is given up on while the slot is pending, as
        /// ``PromiseBatch/cancelWhenRequested(_:stopping:)``.
        @inlinable
        public func cancelWhenRequested(stopping stop: consuming @escaping @Sendable () -> Void) {
            batch.cancelWhenRequested(index, stopping: consume stop)
        }

        /// Whether the slot was resolved (or stopped).
        public var isResolved: Bool { batch.isResolved(index) }
    }
}

/// Sendable as its batch is: a reference and an index, both immutable.
extension PromiseBatch.Slot: Sendable where Value: Sendable {}
