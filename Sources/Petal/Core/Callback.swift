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
    /// Input `index` of a combinator, all of whose inputs share one receiver: no context to
    /// allocate per input, as a closure capturing the index would need.
    case input(InputReceiver<Value>, index: Int)

    /// Calls the closure if `storage`'s outcome (of `kind`, already published) is one it
    /// observes, reading only what the closure takes: no `Outcome` is built on this path.
    @inlinable
    consuming func invoke(from storage: FutureStorage<Value>, kind: OutcomeKind) {
        // Chained futures first, handed the storage as it is: with them in the reader's switch,
        // a chain link cost 3 instructions more and create+subscribe+fulfil 2 (callgrind).
        switch consume self {
        case .step(let receive): receive(storage, kind)
        case .forward(let target): target.resolve(copying: storage, kind: kind)
        case let other: other.invoke(reading: PublishedOutcome(storage, kind: kind))
        }
    }

    /// Calls the closure if `outcome` is one it observes (for callbacks handed to a context).
    @inlinable
    func invoke(with outcome: Outcome<Value>) {
        invoke(reading: HandedOutcome(outcome))
    }

    /// Calls the closure if `reader`'s outcome is one it observes.
    @inlinable
    @inline(__always)
    func invoke<Reader: OutcomeReader>(reading reader: Reader) where Reader.Value == Value {
        switch self {
        case .resolved(let body): body(reader.outcome)
        case .fulfilled(let body): Self.observe(fulfilled: body, reader)
        case .rejected(let body): Self.observe(rejected: body, reader)
        case .cancelled(let body): Self.observe(cancelled: body, reader)
        case .anyError(let body): Self.observe(anyError: body, reader)
        case .step(let receive): reader.deliver(to: receive)
        case .forward(let target): reader.resolve(target)
        case .promise(let promise): promise.resolve(with: reader.outcome)
        case .input(let receiver, let index): receiver.receive(index, reader.outcome)
        }
    }

    /// Which outcomes an observer sees, one rule per kind, used by delivery, by a callback
    /// handed to a context and by the already-resolved fast path alike. A closure handed a
    /// failure observes it; one that is not (`whenFulfilled` on a failure) does not.
    ///
    /// The closures are taken as `@escaping`, the type they are stored with, though these only
    /// call them: passed as non-escaping, each was converted at the call, and the conversion
    /// retained its context for the call and released it after (callgrind, a callback capturing
    /// three values: a subscriber after the fulfil 7.10 -> 5.10 atomics).
    @inlinable
    static func observe<Reader: OutcomeReader>(fulfilled body: @Sendable @escaping (Value) -> Void, _ reader: Reader)
    where Reader.Value == Value {
        if reader.kind == .fulfilled { body(reader.value) }
    }

    /// The rule for `whenRejected`: rejections only.
    @inlinable
    static func observe<Reader: OutcomeReader>(rejected body: @Sendable @escaping (any Error) -> Void, _ reader: Reader)
    where Reader.Value == Value {
        if reader.kind == .rejected { body(reader.error.unsafelyUnwrapped) }
    }

    /// The rule for `whenCancelled`: cancellations, with their indirect error or none.
    @inlinable
    static func observe<Reader: OutcomeReader>(
        cancelled body: @Sendable @escaping ((any Error)?) -> Void, _ reader: Reader
    ) where Reader.Value == Value {
        if reader.kind == .cancelled { body(reader.error) }
    }

    /// The rule for `whenAnyError`: a rejection, or a cancellation that carries an error.
    @inlinable
    static func observe<Reader: OutcomeReader>(anyError body: @Sendable @escaping (any Error) -> Void, _ reader: Reader)
    where Reader.Value == Value {
        if reader.kind != .fulfilled, let error = reader.error { body(error) }
    }

    /// The callback to store for `context`: the closure itself when the context is inline,
    /// otherwise a closure that submits the invocation to the context.
    @inlinable
    static func make<Context: ExecutionContext>(
        _ callback: consuming Callback<Value>, on context: Context
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
