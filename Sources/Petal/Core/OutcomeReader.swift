/// What an observer reads of a resolved outcome: its kind always, the value or the error only
/// when the observer takes it.
///
/// Two readers: a published future read in place (delivery and the already-resolved fast path
/// build no `Outcome`), and an `Outcome` value (a callback handed to another context). The rule
/// of which observer sees which outcome is written once, in ``Callback``, over this protocol.
@usableFromInline
protocol OutcomeReader {
    associatedtype Value

    /// The outcome's kind.
    var kind: OutcomeKind { get }
    /// The value; read only when ``kind`` is `.fulfilled`.
    var value: Value { get }
    /// The rejection's error or the cancellation's indirect error; read only when ``kind`` is
    /// not `.fulfilled`. Reading it counts as observing a failure.
    var error: (any Error)? { get }
    /// The whole outcome, built for an observer that takes it.
    var outcome: Outcome<Value> { get }
    /// Hands the outcome to a chain step, which reads it from a published future.
    func deliver(to step: (FutureStorage<Value>, OutcomeKind) -> Void)
    /// Resolves `target` with the outcome, as a future that mirrors this one.
    func resolve(_ target: FutureStorage<Value>)
}

/// A resolved future's outcome, read in place.
///
/// It lives only for one call, made by a caller that holds the future, so it holds the future
/// unretained and lends it on as guaranteed: held strongly, or unowned, it cost each delivery a
/// retain and a release (callgrind: two atomics a link of a chain).
@usableFromInline
struct PublishedOutcome<Value>: OutcomeReader {
    @usableFromInline
    let storage: Unmanaged<FutureStorage<Value>>
    @usableFromInline
    let kind: OutcomeKind

    @inlinable
    init(_ storage: FutureStorage<Value>, kind: OutcomeKind) {
        self.storage = .passUnretained(storage)
        self.kind = kind
    }

    @inlinable
    var value: Value { storage._withUnsafeGuaranteedRef { $0.value } }

    @inlinable
    var error: (any Error)? { storage._withUnsafeGuaranteedRef { $0.observedError } }

    @inlinable
    var outcome: Outcome<Value> { storage._withUnsafeGuaranteedRef { $0.outcome(kind: kind) } }

    @inlinable
    func deliver(to step: (FutureStorage<Value>, OutcomeKind) -> Void) {
        storage._withUnsafeGuaranteedRef { step($0, kind) }
    }

    @inlinable
    func resolve(_ target: FutureStorage<Value>) {
        _ = storage._withUnsafeGuaranteedRef { target.resolve(copying: $0, kind: kind) }
    }
}

/// An outcome handed over as a value.
@usableFromInline
struct HandedOutcome<Value>: OutcomeReader {
    @usableFromInline
    let outcome: Outcome<Value>

    @inlinable
    init(_ outcome: Outcome<Value>) {
        self.outcome = outcome
    }

    @inlinable
    var kind: OutcomeKind { outcome.kind }

    @inlinable
    var value: Value { outcome.value.unsafelyUnwrapped }

    @inlinable
    var error: (any Error)? { outcome.error }

    /// Steps handle their context themselves and are never handed to one; this stays correct
    /// anyway, at the price of a resolved copy.
    @inlinable
    func deliver(to step: (FutureStorage<Value>, OutcomeKind) -> Void) {
        let source = FutureStorage<Value>.makeResolved(outcome)
        step(source, OutcomeKind(publishedIn: source.cell))
    }

    @inlinable
    func resolve(_ target: FutureStorage<Value>) {
        _ = target.resolve(with: outcome)
    }
}
