/// `recover` and `mapError`: turn a failure that reaches this point of a chain into a value, or
/// into a different error.
///
/// Which failures a recovery sees: the receiver's rejection, and, when `includingIndirectErrors`
/// is `true` (the default), a cancellation's indirect error (a failure further up, carried down
/// the chain). A cancellation without an error is never recovered from: nothing failed.
extension Future {
    /// Replaces a failure with the value `body` returns, if it returns one.
    ///
    /// - Where and when: `body` runs once on `context`, with the error, when the receiver fails
    ///   in a way it sees (see above); never when the receiver is fulfilled.
    /// - Returns: a future fulfilled with the receiver's value, or with what `body` returns;
    ///   rejected with what `body` throws; cancelled, with the receiver's error as its indirect
    ///   error, when `body` returns `nil` or does not see the failure (the failure keeps
    ///   travelling down the chain).
    @inlinable
    public func recover<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using body: @escaping @Sendable (any Error) throws -> Value?
    ) -> Future<Value> {
        storage.chain(RecoverStep(context: context, includeIndirectErrors: includeIndirectErrors, body: body))
    }

    /// Replaces a failure with `alternative`, computed only if it is needed.
    ///
    /// - Where and when: `alternative` is evaluated once on `context`, when the receiver fails in
    ///   a way it sees (see above); never when the receiver is fulfilled.
    /// - Returns: a future fulfilled with the receiver's value, or with `alternative`; cancelled,
    ///   with the receiver's error as its indirect error, when the failure is not one it sees.
    @inlinable
    public func recover<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using alternative: @autoclosure @escaping @Sendable () -> Value
    ) -> Future<Value> {
        storage.chain(
            RecoverWithValueStep(
                context: context, includeIndirectErrors: includeIndirectErrors, alternative: alternative)
        )
    }

    /// Replaces a failure with the work `body` returns.
    ///
    /// - Where and when: `body` runs once on `context`, with the error, when the receiver fails
    ///   in a way it sees (see above); never when the receiver is fulfilled.
    /// - Returns: a future fulfilled with the receiver's value, or resolved exactly as the future
    ///   `body` returns (it is this step's own work); rejected with what `body` throws;
    ///   cancelled, with the receiver's error as its indirect error, when the failure is not
    ///   one it sees.
    @inlinable
    public func recover<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using body: @escaping @Sendable (any Error) throws -> Future<Value>
    ) -> Future<Value> {
        storage.chain(RecoverFutureStep(context: context, includeIndirectErrors: includeIndirectErrors, body: body))
    }

    /// Replaces the error that travels down the chain with what `transform` makes of it.
    ///
    /// - Where and when: `transform` runs once on `context`, with the receiver's rejection error
    ///   or its cancellation's indirect error; never for a fulfilment or a cancellation without
    ///   an error.
    /// - Returns: a future fulfilled with the receiver's value; cancelled with the transformed
    ///   error as its indirect error when the receiver is rejected or cancelled with an error
    ///   (downstream of a failure, by the one failure rule); cancelled without an error when
    ///   the receiver is.
    @inlinable
    public func mapError<Context: ExecutionContext>(
        on context: Context = .inline, _ transform: @escaping @Sendable (any Error) -> any Error
    ) -> Future<Value> {
        storage.chain(MapErrorStep(context: context, transform: transform))
    }
}

extension FutureStorage {
    /// The error a recovery handles for an upstream outcome of `kind`, or `nil` when the
    /// outcome passes down unchanged (a fulfilment, a cancellation without an error, or an
    /// indirect error the recovery does not include).
    @inlinable
    func recoverableError(kind: OutcomeKind, includeIndirectErrors: Bool) -> (any Error)? {
        switch kind {
        case .fulfilled: return nil
        case .rejected: return error.pointee
        case .cancelled: return includeIndirectErrors ? error.pointee : nil
        }
    }
}

/// The step of the optional-returning `recover`.
@usableFromInline
struct RecoverStep<Value, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let includeIndirectErrors: Bool
    @usableFromInline
    let body: @Sendable (any Error) throws -> Value?

    @inlinable
    init(context: Context, includeIndirectErrors: Bool, body: @escaping @Sendable (any Error) throws -> Value?) {
        self.context = context
        self.includeIndirectErrors = includeIndirectErrors
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Value>, kind: OutcomeKind, downstream: FutureStorage<Value>) {
        guard let error = upstream.recoverableError(kind: kind, includeIndirectErrors: includeIndirectErrors) else {
            downstream.resolve(passingOn: upstream, kind: kind)
            return
        }
        do {
            if let value = try body(error) {
                downstream.fulfil(with: value)
            } else {
                downstream.cancel(following: upstream)
            }
        } catch {
            downstream.fail(.rejected, error: error)
        }
    }
}

/// The step of the autoclosure `recover`.
@usableFromInline
struct RecoverWithValueStep<Value, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let includeIndirectErrors: Bool
    @usableFromInline
    let alternative: @Sendable () -> Value

    @inlinable
    init(context: Context, includeIndirectErrors: Bool, alternative: @escaping @Sendable () -> Value) {
        self.context = context
        self.includeIndirectErrors = includeIndirectErrors
        self.alternative = alternative
    }

    @inlinable
    func run(upstream: FutureStorage<Value>, kind: OutcomeKind, downstream: FutureStorage<Value>) {
        guard upstream.recoverableError(kind: kind, includeIndirectErrors: includeIndirectErrors) != nil else {
            downstream.resolve(passingOn: upstream, kind: kind)
            return
        }
        downstream.fulfil(with: alternative())
    }
}

/// The step of the future-returning `recover`.
@usableFromInline
struct RecoverFutureStep<Value, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let includeIndirectErrors: Bool
    @usableFromInline
    let body: @Sendable (any Error) throws -> Future<Value>

    @inlinable
    init(context: Context, includeIndirectErrors: Bool, body: @escaping @Sendable (any Error) throws -> Future<Value>) {
        self.context = context
        self.includeIndirectErrors = includeIndirectErrors
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Value>, kind: OutcomeKind, downstream: FutureStorage<Value>) {
        guard let error = upstream.recoverableError(kind: kind, includeIndirectErrors: includeIndirectErrors) else {
            downstream.resolve(passingOn: upstream, kind: kind)
            return
        }
        do {
            try body(error).storage.subscribe(.forward(downstream))
        } catch {
            downstream.fail(.rejected, error: error)
        }
    }
}

/// The step of `mapError`.
@usableFromInline
struct MapErrorStep<Value, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let transform: @Sendable (any Error) -> any Error

    @inlinable
    init(context: Context, transform: @escaping @Sendable (any Error) -> any Error) {
        self.context = context
        self.transform = transform
    }

    @inlinable
    func run(upstream: FutureStorage<Value>, kind: OutcomeKind, downstream: FutureStorage<Value>) {
        guard kind != .fulfilled, let error = upstream.error.pointee else {
            downstream.resolve(passingOn: upstream, kind: kind)
            return
        }
        downstream.fail(.cancelled, error: transform(error))
    }
}
