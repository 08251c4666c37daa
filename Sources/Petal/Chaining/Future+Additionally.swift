/// `additionally`: run more work with the value, and carry the value forward beside its result.
extension Future {
    /// Runs `body` with the value once the receiver is fulfilled, and pairs the value with what
    /// `body` returns.
    ///
    /// - Where and when: `body` runs once on `context`, after the receiver is fulfilled.
    /// - Returns: a future fulfilled with `(value, result)`; rejected with what `body` throws;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is
    ///   rejected or cancelled (and `body` never runs).
    @inlinable
    public func additionally<Output, Context: ExecutionContext>(
        on context: Context = .inline, _ body: consuming @escaping @Sendable (Value) throws -> Output
    ) -> Future<(Value, Output)> {
        storage.chain(Additionally<Value, Output>.self, on: context, body: consume body)
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
        on context: Context = .inline, _ body: consuming @escaping @Sendable (Value) throws -> Future<Output>
    ) -> Future<(Value, Output)> {
        storage.chain(AdditionallyFollowing<Value, Output>.self, on: context, body: consume body)
    }
}

/// `additionally` with a value-returning closure: the input and the closure's value, paired.
@usableFromInline
enum Additionally<Input, Result>: ValueStepLogic {
    @usableFromInline
    typealias Output = (Input, Result)
    @usableFromInline
    typealias Body = @Sendable (Input) throws -> Result

    @inlinable
    static func run(
        _ body: @Sendable (Input) throws -> Result, value: Input, downstream: FutureStorage<(Input, Result)>
    ) {
        downstream.settle { (value, try body(value)) }
    }
}

/// `additionally` with a future-returning closure: the input and the returned future's value.
@usableFromInline
enum AdditionallyFollowing<Input, Result>: ValueStepLogic {
    @inlinable
    static var mayPassRequests: Bool { true }

    @usableFromInline
    typealias Output = (Input, Result)
    @usableFromInline
    typealias Body = @Sendable (Input) throws -> Future<Result>

    @inlinable
    static func run(
        _ body: @Sendable (Input) throws -> Future<Result>, value: Input, downstream: FutureStorage<(Input, Result)>
    ) {
        let work: Future<Result>
        do {
            work = try body(value)
        } catch {
            downstream.fail(.rejected, error: error)
            return
        }
        downstream.passRequests(to: work.storage)
        // The pairing needs the input again, so this form keeps a small closure; the input and
        // the downstream are confined to it (the downstream is resolved only here).
        let pending = UncheckedSendableBox((value, downstream))
        work.whenResolved { outcome in
            let (input, downstream) = pending.value
            switch outcome {
            case .fulfilled(let output): downstream.fulfil(with: (input, output))
            case .rejected(let error): downstream.fail(.rejected, error: error)
            case .cancelled(let indirectError): downstream.fail(.cancelled, error: indirectError)
            }
        }
    }
}
