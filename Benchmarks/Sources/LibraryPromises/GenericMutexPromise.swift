import Synchronization

/// The lock-based design of the promise libraries users pick instead of Petal (PromiseKit,
/// BrightFutures, Daisy), generic over its value as each of them is: a `Mutex` around the value
/// or the callbacks waiting for it.
///
/// Why it is in a module of its own, with its API `@inlinable`: a user gets such a library as a
/// package dependency, a module SwiftPM builds apart from the user's code, and a library that
/// cares for speed marks its hot paths `@inlinable`, as Petal does, so that the caller
/// specialises them for its value type. Built without (as most promise libraries are), this
/// design runs unspecialised in its caller and pays run-time metadata on every call, and Petal
/// leads it 5.92x instead of 1.72x: a contender that weak would flatter Petal, so the suite
/// measures the strong one. `MutexPromise`, specialised to `Int` by hand, is the floor of the
/// same design.
public final class GenericMutexPromise<Value: Sendable>: Sendable {
    @usableFromInline
    struct State {
        @usableFromInline var value: Value?
        @usableFromInline var callbacks: [@Sendable (Value) -> Void] = []
    }

    @usableFromInline let state = Mutex(State())

    @inlinable public init() {}

    /// Calls `callback` with the value once fulfilled: at once, on this thread, if it already is.
    @inlinable
    public func subscribe(_ callback: @escaping @Sendable (Value) -> Void) {
        let value = state.withLock { state -> Value? in
            if let value = state.value { return value }
            state.callbacks.append(callback)
            return nil
        }
        if let value { callback(value) }
    }

    /// Fulfils with `value` and runs the waiting callbacks in order, outside the lock; returns
    /// whether this call won.
    @inlinable
    @discardableResult
    public func fulfil(_ value: Value) -> Bool {
        let callbacks = state.withLock { state -> [@Sendable (Value) -> Void]? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.callbacks = [] }
            return state.callbacks
        }
        guard let callbacks else { return false }
        for callback in callbacks { callback(value) }
        return true
    }
}
