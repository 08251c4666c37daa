import CPetal

/// The read side of a single-assignment value that becomes available later: fulfilled with a
/// value, rejected with an error, or cancelled (with an optional indirect error).
///
/// Get one from a ``Promise`` (or from a constructor for an already resolved future), then observe
/// it with ``whenResolved(on:_:)`` and its siblings, peek at it with ``peek()``, or block on it with
/// ``wait()``. A future is a small value (one reference); copies observe the same resolution.
///
/// ## The states
///
/// A future starts *pending*. Exactly one resolution moves it to *fulfilled*, *rejected* or
/// *cancelled*, and it never changes again. Callbacks subscribed while pending run when it
/// resolves; callbacks subscribed afterwards run at once. Each runs exactly once, and callbacks
/// run in the order they were subscribed.
///
/// ## Threads
///
/// Every method is safe to call from any thread. Callbacks run on the context you pass: with
/// `.inline` (the default), on the thread that resolves the future, or on the subscribing thread
/// when the future is already resolved.
public struct Future<Value> {
    @usableFromInline
    let storage: FutureStorage<Value>

    @inlinable
    init(storage: FutureStorage<Value>) {
        self.storage = storage
    }

    /// A future already fulfilled with `value`.
    @inlinable
    public static func fulfilled(with value: Value) -> Future<Value> {
        Future(storage: .makeResolved(.fulfilled(value)))
    }

    /// A future already rejected with `error`.
    @inlinable
    public static func rejected(with error: any Error) -> Future<Value> {
        Future(storage: .makeResolved(.rejected(error)))
    }

    /// A future already cancelled, with an optional indirect error.
    @inlinable
    public static func cancelled(withIndirectError indirectError: (any Error)? = nil) -> Future<Value> {
        Future(storage: .makeResolved(.cancelled(indirectError: indirectError)))
    }

    /// A future already resolved with `outcome`.
    @inlinable
    public init(resolvedWith outcome: Outcome<Value>) {
        self.init(storage: .makeResolved(outcome))
    }

    /// Whether the future has resolved. A resolution still being written counts as pending.
    @inlinable
    public var isResolved: Bool { storage.isResolved }

    /// The outcome if the future has resolved, otherwise `nil`. Never blocks.
    @inlinable
    public func peek() -> Outcome<Value>? { storage.peek() }
}

/// Sendable: the storage is a `ManagedBuffer`, which cannot conform itself, but every access to
/// it is synchronised by the C cell protocol: the outcome is written once by the single claimer
/// before a release publish and read only after an acquire load sees it resolved; callbacks and
/// nodes are handed over through release CASes and taken by the single publisher.
extension Future: @unchecked Sendable where Value: Sendable {}
