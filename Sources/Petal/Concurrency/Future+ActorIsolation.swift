/// The isolated forms: steps and callbacks that run on an ``ActorExecutionContext``'s actor and
/// are checked by the compiler as isolated to it.
///
/// Each behaves as its plain form `on:` the same context (the one failure rule, cancellation,
/// where and when it runs), with the actor handed to the closure as an `isolated` parameter, or,
/// on ``ExecutionContext/mainActor``, with a `@MainActor` closure. Inside, the context's task
/// runs on the actor, and the closure is entered through `assumeIsolated`, which checks it.
///
/// Their own label, `isolatedTo:`, not `on:`: overloads of `then(on:)` by the context's type
/// leave the choice to the type checker's ranking, which picked the plain form (and then
/// refused the closure's `@MainActor` access) in some expressions and not others.
extension Future {
    /// Transforms the value with `body`, isolated to the context's actor, once the receiver is
    /// fulfilled.
    ///
    /// - Returns: a future fulfilled with what `body` returns; rejected with what it throws;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is rejected
    ///   or cancelled (and `body` never runs).
    public func then<IsolatedActor, Output>(
        isolatedTo context: ActorExecutionContext<IsolatedActor>,
        _ body: @escaping @Sendable (isolated IsolatedActor, Value) throws -> Output
    ) -> Future<Output> {
        let actor = context.actor
        return then(on: context) { value in
            let input = Isolated(value)
            return try actor.assumeIsolated { actor in try Isolated(body(actor, input.wrapped)) }.wrapped
        }
    }

    /// Continues with the future `body` returns, `body` isolated to the context's actor, once the
    /// receiver is fulfilled.
    ///
    /// - Returns: a future that resolves exactly as the future `body` returns; rejected with what
    ///   `body` throws; cancelled, with the receiver's error as its indirect error, when the
    ///   receiver is rejected or cancelled (and `body` never runs).
    public func then<IsolatedActor, Output>(
        isolatedTo context: ActorExecutionContext<IsolatedActor>,
        _ body: @escaping @Sendable (isolated IsolatedActor, Value) throws -> Future<Output>
    ) -> Future<Output> {
        let actor = context.actor
        return then(on: context) { value in
            let input = Isolated(value)
            return try actor.assumeIsolated { actor in try Isolated(body(actor, input.wrapped)) }.wrapped
        }
    }

    /// Calls `body`, isolated to the context's actor, with the value if the future is fulfilled.
    public func whenFulfilled<IsolatedActor>(
        isolatedTo context: ActorExecutionContext<IsolatedActor>,
        _ body: @escaping @Sendable (isolated IsolatedActor, Value) -> Void
    ) {
        let actor = context.actor
        whenFulfilled(on: context) { value in
            let input = Isolated(value)
            actor.assumeIsolated { actor in body(actor, input.wrapped) }
        }
    }

    /// Calls `body`, isolated to the context's actor, with the outcome, whatever it is.
    public func whenResolved<IsolatedActor>(
        isolatedTo context: ActorExecutionContext<IsolatedActor>,
        _ body: @escaping @Sendable (isolated IsolatedActor, Outcome<Value>) -> Void
    ) {
        let actor = context.actor
        whenResolved(on: context) { outcome in
            let input = Isolated(outcome)
            actor.assumeIsolated { actor in body(actor, input.wrapped) }
        }
    }
}

extension Future {
    /// Transforms the value with `body` on the main actor once the receiver is fulfilled.
    ///
    /// - Returns: a future fulfilled with what `body` returns; rejected with what it throws;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is rejected
    ///   or cancelled (and `body` never runs).
    public func then<Output>(
        isolatedTo context: ActorExecutionContext<MainActor>,
        _ body: @escaping @MainActor @Sendable (Value) throws -> Output
    ) -> Future<Output> {
        then(on: context) { value in
            let input = Isolated(value)
            return try MainActor.assumeIsolated { try Isolated(body(input.wrapped)) }.wrapped
        }
    }

    /// Continues with the future `body` returns, `body` on the main actor, once the receiver is
    /// fulfilled.
    ///
    /// - Returns: a future that resolves exactly as the future `body` returns; rejected with what
    ///   `body` throws; cancelled, with the receiver's error as its indirect error, when the
    ///   receiver is rejected or cancelled (and `body` never runs).
    public func then<Output>(
        isolatedTo context: ActorExecutionContext<MainActor>,
        _ body: @escaping @MainActor @Sendable (Value) throws -> Future<Output>
    ) -> Future<Output> {
        then(on: context) { value in
            let input = Isolated(value)
            return try MainActor.assumeIsolated { try Isolated(body(input.wrapped)) }.wrapped
        }
    }

    /// Calls `body` on the main actor with the value if the future is fulfilled.
    public func whenFulfilled(
        isolatedTo context: ActorExecutionContext<MainActor>, _ body: @escaping @MainActor @Sendable (Value) -> Void
    ) {
        whenFulfilled(on: context) { value in
            let input = Isolated(value)
            MainActor.assumeIsolated { body(input.wrapped) }
        }
    }

    /// Calls `body` on the main actor with the outcome, whatever it is.
    public func whenResolved(
        isolatedTo context: ActorExecutionContext<MainActor>,
        _ body: @escaping @MainActor @Sendable (Outcome<Value>) -> Void
    ) {
        whenResolved(on: context) { outcome in
            let input = Isolated(outcome)
            MainActor.assumeIsolated { body(input.wrapped) }
        }
    }
}

/// A value handed into, or out of, an `assumeIsolated` closure on the thread that runs it.
///
/// `@unchecked Sendable`: `assumeIsolated` runs its closure synchronously on the calling thread
/// (it only checks that the thread is on the actor), so the value never crosses to another
/// thread; it asks for `Sendable` results because it cannot know that its callers' values
/// stay put. Callbacks and steps already take non-`Sendable` values across threads under
/// Petal's own happens-before (the resolution publishes the value, the context runs the work).
private struct Isolated<Wrapped>: @unchecked Sendable {
    let wrapped: Wrapped

    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }
}
