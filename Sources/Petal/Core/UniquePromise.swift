/// A promise that cannot be copied: a prototype, kept to measure what a promise without a
/// separate handle object would cost.
///
/// ``Promise`` is a class of its own, apart from its future's storage, because the
/// abandoned-promise rule needs the producers' references counted apart from the consumers'.
/// A non-copyable promise has exactly one owner, so its own `deinit` can apply the rule and the
/// promise costs no allocation beyond the future's storage. It does not replace ``Promise``:
/// a non-copyable value cannot be an element of an array, a generic argument, an existential or
/// a tuple element, nor be captured by a `TaskGroup.addTask` closure, and an escaping closure that
/// captures it boxes it on the heap anyway. The benchmarks measure it beside ``Promise`` on the
/// workloads where it compiles.
@_spi(Prototypes)
public struct UniquePromise<Value>: ~Copyable {
    @usableFromInline
    let storage: FutureStorage<Value>

    /// Where the promise was created, to name it if it is dropped unresolved.
    @usableFromInline
    let site: PromiseSite

    /// Creates a promise with a pending future.
    @inlinable
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        storage = .makePending()
        site = PromiseSite(fileID: fileID, line: line)
    }

    /// The future this promise resolves.
    @inlinable
    public var future: Future<Value> { Future(storage: storage) }

    /// Fulfils the future with `value`; returns whether this call resolved it. Inline callbacks
    /// run on this thread before this returns.
    @inlinable
    @discardableResult
    public borrowing func fulfil(with value: Value) -> Bool {
        storage.fulfil(with: value)
    }

    deinit {
        // The one owner is gone: cancel the future if it is still pending, as Promise does.
        if !storage.isResolved { site.abandon(storage) }
    }
}
