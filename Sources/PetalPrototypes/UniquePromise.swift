// The whole module is the Prototypes trait's: without it, this target compiles to nothing.
#if Prototypes
    import Petal

    /// A promise that cannot be copied: a prototype, kept to measure what a promise without a
    /// separate handle object would cost.
    ///
    /// ``Petal/Promise`` is a class of its own, apart from its future's storage, because the
    /// abandoned-promise rule needs the producers' references counted apart from the consumers'.
    /// A non-copyable promise has exactly one owner, so its own `deinit` can apply the rule and
    /// the promise costs no allocation beyond the future's storage. It does not replace
    /// `Promise`, because where a service keeps a promise, its second allocation comes back:
    /// - A non-copyable value cannot be an element of an `Array`, a `Dictionary`, NIO's
    ///   `CircularBuffer` or a tuple, nor an `any Sendable`, so a table of pending calls needs a
    ///   class box per entry.
    /// - A completion handler may own it (an escaping closure, a task group's included, captures
    ///   it and calls its borrowing methods), but the closure's context then holds it on the
    ///   heap, where a `Promise`, one class reference, is its own context: `PetalProbe`'s
    ///   "completion handler" counts two allocations a promise for both, and 1,005 instructions
    ///   against `Promise`'s 1,076 (637 against 970 where the promise never leaves its scope).
    ///
    /// The benchmarks measure it beside `Promise` on the workloads where it compiles.
    public struct UniquePromise<Value>: ~Copyable {
        /// The future this promise resolves.
        public let future: Future<Value>

        /// Where the promise was created, to name it if it is dropped unresolved.
        @usableFromInline
        let fileID: StaticString
        @usableFromInline
        let line: UInt

        /// Creates a promise with a pending future.
        @inlinable
        public init(fileID: StaticString = #fileID, line: UInt = #line) {
            future = .makePendingForPrototype()
            self.fileID = fileID
            self.line = line
        }

        /// Fulfils the future with `value`; returns whether this call resolved it.
        @inlinable
        @discardableResult
        public borrowing func fulfil(with value: Value) -> Bool {
            future.fulfilForPrototype(with: value)
        }

        /// Cancels the future when a consumer asks for its cancellation, and runs `stop`, as
        /// ``Petal/Promise/cancelWhenRequested(on:stopping:)`` does on the inline context.
        @inlinable
        public borrowing func cancelWhenRequested(stopping stop: @escaping @Sendable () -> Void) {
            future.cancelWhenRequestedForPrototype(stopping: stop)
        }

        deinit {
            // The one owner is gone: cancel the future if it is still pending, as Promise does.
            future.abandonForPrototype(fileID: fileID, line: line)
        }
    }
#endif
