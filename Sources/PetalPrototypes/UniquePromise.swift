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
    /// `Promise`: a non-copyable value cannot be an element of an array, a generic argument, an
    /// existential or a tuple element, nor be captured by a `TaskGroup.addTask` closure, and an
    /// escaping closure that captures it boxes it on the heap anyway. The benchmarks measure it
    /// beside `Promise` on the workloads where it compiles.
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

        deinit {
            // The one owner is gone: cancel the future if it is still pending, as Promise does.
            future.abandonForPrototype(fileID: fileID, line: line)
        }
    }
#endif
