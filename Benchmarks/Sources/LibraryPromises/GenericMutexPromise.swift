import Synchronization

/// The lock-based design of the promise libraries users pick instead of Petal (PromiseKit,
/// BrightFutures, Daisy), generic over its value as each of them is: a `Mutex` around the value
/// or the callbacks waiting for it.
///
/// Why it is in a module of its own, with nothing `@inlinable`: a user gets such a library as a
/// package dependency, a module SwiftPM builds apart from the user's code, where the compiler
/// specialises across the module boundary only what its default cross-module optimisation
/// chooses to. This module is built the same way, so the contender pays what Swift charges a
/// generic type from another module, as those libraries' users do. `MutexPromise`, specialised
/// to `Int` by hand, is the floor of the same design.
public final class GenericMutexPromise<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var callbacks: [@Sendable (Value) -> Void] = []
    }

    private let state = Mutex(State())

    public init() {}

    /// Calls `callback` with the value once fulfilled: at once, on this thread, if it already is.
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
