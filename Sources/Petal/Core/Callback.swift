import CPetal

/// A subscriber's closure, stored exactly as the subscriber gave it.
///
/// One case per observer kind, so that `whenFulfilled` keeps the user's `(Value) -> Void`
/// instead of wrapping it in an `(Outcome) -> Void` closure (a wrapper costs a context
/// allocation per subscription). Callbacks for non-inline contexts are the exception: they
/// are wrapped in a `.resolved` closure that hands the work to the context, which allocates to
/// enqueue it anyway.
@usableFromInline
enum Callback<Value> {
    case resolved(@Sendable (Outcome<Value>) -> Void)
    case fulfilled(@Sendable (Value) -> Void)
    case rejected(@Sendable (any Error) -> Void)
    case cancelled(@Sendable ((any Error)?) -> Void)
    case anyError(@Sendable (any Error) -> Void)
    /// A chained future receiving the outcome (a chain step, declared by Chaining). The closure captures only
    /// the chained future, which the compiler then uses as the closure's context (no box), and
    /// it is formed where the step's types are concrete, so delivery runs specialised code.
    case step((FutureStorage<Value>, OutcomeKind) -> Void)
    /// A future that mirrors this one exactly (the future a chaining closure returned is the
    /// chained future's own work).
    case forward(FutureStorage<Value>)
    /// A promise resolved from this future (`Promise.resolve(from:)`); holding the promise keeps
    /// it from being abandoned while the source is pending, and repeats are reported as usual.
    case promise(Promise<Value>)

    /// Calls the closure if `storage`'s outcome (of `kind`, already published) is one it
    /// observes, reading only what the closure takes: no `Outcome` is built on this path. A
    /// closure handed a failure observes it; one that is not (`whenFulfilled` on a failure) does
    /// not.
    @inlinable
    func invoke(from storage: FutureStorage<Value>, kind: OutcomeKind) {
        switch self {
        case .resolved(let body):
            body(storage.outcome(kind: kind))
        case .fulfilled(let body):
            if kind == .fulfilled { body(storage.value) }
        case .rejected(let body):
            if kind == .rejected { body(storage.observedError.unsafelyUnwrapped) }
        case .cancelled(let body):
            if kind == .cancelled { body(storage.observedError) }
        case .anyError(let body):
            if kind != .fulfilled, let error = storage.observedError { body(error) }
        case .step(let receive):
            receive(storage, kind)
        case .forward(let target):
            target.resolve(copying: storage, kind: kind)
        case .promise(let promise):
            promise.resolve(with: storage.outcome(kind: kind))
        }
    }

    /// Calls the closure if `outcome` is one it observes (for callbacks handed to a context).
    @inlinable
    func invoke(with outcome: Outcome<Value>) {
        switch (self, outcome) {
        case (.resolved(let body), _):
            body(outcome)
        case (.fulfilled(let body), .fulfilled(let value)):
            body(value)
        case (.rejected(let body), .rejected(let error)):
            body(error)
        case (.cancelled(let body), .cancelled(let indirectError)):
            body(indirectError)
        case (.anyError(let body), .rejected(let error)),
            (.anyError(let body), .cancelled(indirectError: .some(let error))):
            body(error)
        case (.step(let receive), _):
            // Steps handle their context themselves and are never handed to one; this stays
            // correct anyway, at the price of a resolved copy.
            let source = FutureStorage<Value>.makeResolved(outcome)
            receive(source, OutcomeKind(publishedIn: source.cell))
        case (.forward(let target), _):
            _ = target.resolve(with: outcome)
        case (.promise(let promise), _):
            promise.resolve(with: outcome)
        default:
            break
        }
    }

    /// The callback to store for `context`: the closure itself when the context is inline,
    /// otherwise a closure that submits the invocation to the context.
    @inlinable
    static func make<Context: ExecutionContext>(
        _ callback: Callback<Value>, on context: Context
    ) -> Callback<Value> {
        if Context.self == InlineExecutionContext.self { return callback }
        return dispatching(callback, on: context)
    }

    @usableFromInline
    static func dispatching(_ callback: Callback<Value>, on context: some ExecutionContext) -> Callback<Value> {
        // The outcome crosses to the context's thread: sound because a Future of a non-Sendable
        // Value is itself not Sendable, so it cannot have been shared with another thread here.
        let box = UncheckedSendableBox(callback)
        return .resolved { outcome in
            let outcomeBox = UncheckedSendableBox(outcome)
            context.execute { box.value.invoke(with: outcomeBox.value) }
        }
    }
}

/// Moves a value across a `@Sendable` boundary that the compiler cannot see is safe; every use
/// says why it is.
@usableFromInline
struct UncheckedSendableBox<Wrapped>: @unchecked Sendable {
    @usableFromInline
    let value: Wrapped

    @inlinable
    init(_ value: Wrapped) {
        self.value = value
    }
}
