/// `additionally`: run more work with the value, and carry the value forward beside its result.
extension Future {
    /// Runs `body` with the value once the receiver is fulfilled, and pairs the value with what
    /// `body` returns.
    ///
    /// - Where and when: `body` runs once on `context` (honoured, unlike Daisy), after the
    ///   receiver is fulfilled.
    /// - Returns: a future fulfilled with `(value, result)`; rejected with what `body` throws;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is
    ///   rejected or cancelled (and `body` never runs).
    @inlinable
    public func additionally<Output, Context: ExecutionContext>(
        on context: Context = .inline, _ body: @escaping @Sendable (Value) throws -> Output
    ) -> Future<(Value, Output)> {
        storage.chain(AdditionallyStep(context: context, body: body))
    }

    /// Starts the work `body` returns once the receiver is fulfilled, and pairs the value with
    /// that work's result.
    ///
    /// - Where and when: `body` runs once on `context`, after the receiver is fulfilled.
    /// - Returns: a future fulfilled with `(value, result)` when the future `body` returned is
    ///   fulfilled; rejected or cancelled exactly as that future is otherwise (it is this step's
    ///   own work); rejected with what `body` throws; cancelled, with the receiver's error as its
    ///   indirect error, when the receiver is rejected or cancelled (and `body` never runs).
    @inlinable
    public func additionally<Output, Context: ExecutionContext>(
        on context: Context = .inline, _ body: @escaping @Sendable (Value) throws -> Future<Output>
    ) -> Future<(Value, Output)> {
        storage.chain(AdditionallyFutureStep(context: context, body: body))
    }
}

/// The step of the value-returning `additionally`.
@usableFromInline
struct AdditionallyStep<Input, Output, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let body: @Sendable (Input) throws -> Output

    @inlinable
    init(context: Context, body: @escaping @Sendable (Input) throws -> Output) {
        self.context = context
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<(Input, Output)>) {
        guard kind == .fulfilled else {
            downstream.cancel(following: upstream)
            return
        }
        let input = upstream.value
        downstream.settle { (input, try body(input)) }
    }
}

/// The step of the future-returning `additionally`.
@usableFromInline
struct AdditionallyFutureStep<Input, Output, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let body: @Sendable (Input) throws -> Future<Output>

    @inlinable
    init(context: Context, body: @escaping @Sendable (Input) throws -> Future<Output>) {
        self.context = context
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<(Input, Output)>) {
        guard kind == .fulfilled else {
            downstream.cancel(following: upstream)
            return
        }
        let work: Future<Output>
        do {
            work = try body(upstream.value)
        } catch {
            downstream.fail(.rejected, error: error)
            return
        }
        // The pairing needs the input again, so this form keeps a small closure; the inputs
        // are confined to it (the downstream is resolved only here).
        let pending = UncheckedSendableBox((upstream, downstream))
        work.whenResolved { outcome in
            let (upstream, downstream) = pending.value
            switch outcome {
            case .fulfilled(let output): downstream.fulfil(with: (upstream.value, output))
            case .rejected(let error): downstream.fail(.rejected, error: error)
            case .cancelled(let indirectError): downstream.fail(.cancelled, error: indirectError)
            }
        }
    }
}
