/// `then`: the next piece of work, run with the value when the receiver is fulfilled.
///
/// Both forms follow the one failure rule (see <doc:ChainingWork>): the returned future is rejected
/// when this step's own work fails (its closure throws, or the future it returned is rejected),
/// and cancelled, with the receiver's error as its indirect error, when the receiver is rejected
/// or cancelled; the closure then never runs.
extension Future {
    /// Transforms the value with `body` once the receiver is fulfilled.
    ///
    /// - Where and when: `body` runs once on `context`, after the receiver is fulfilled (with
    ///   `.inline`, on the thread that fulfils it, or on this thread before `then` returns if it
    ///   is already fulfilled).
    /// - Returns: a future that is fulfilled with what `body` returns; rejected with what `body`
    ///   throws; cancelled, with the receiver's rejection error or indirect error as its
    ///   indirect error, when the receiver is rejected or cancelled (and `body` never runs).
    ///
    /// A step costs one allocation, the returned future, which also holds `body` until it runs.
    @inlinable
    public func then<Output, Context: ExecutionContext>(
        on context: Context = .inline, _ body: consuming @escaping @Sendable (Value) throws -> Output
    ) -> Future<Output> {
        storage.chain(Then<Value, Output>.self, on: context, body: consume body)
    }

    /// Continues with the future `body` returns once the receiver is fulfilled.
    ///
    /// - Where and when: `body` runs once on `context`, after the receiver is fulfilled (with
    ///   `.inline`, on the thread that fulfils it, or on this thread before `then` returns if it
    ///   is already fulfilled).
    /// - Returns: a future that resolves exactly as the future `body` returns (fulfilled,
    ///   rejected or cancelled alike: that future is this step's own work); rejected with what
    ///   `body` throws; cancelled, with the receiver's error as its indirect error, when the
    ///   receiver is rejected or cancelled (and `body` never runs).
    @inlinable
    public func then<Output, Context: ExecutionContext>(
        on context: Context = .inline, _ body: consuming @escaping @Sendable (Value) throws -> Future<Output>
    ) -> Future<Output> {
        storage.chain(ThenFollowing<Value, Output>.self, on: context, body: consume body)
    }
}

/// `then` with a value-returning closure: its value fulfils the chained future.
@usableFromInline
enum Then<Input, Output>: ValueStepLogic {
    @usableFromInline
    typealias Body = @Sendable (Input) throws -> Output

    @inlinable
    static func run(_ body: @Sendable (Input) throws -> Output, value: Input, downstream: FutureStorage<Output>) {
        downstream.settle { try body(value) }
    }
}

/// `then` with a future-returning closure: the chained future follows the one returned.
@usableFromInline
enum ThenFollowing<Input, Output>: ValueStepLogic {
    @inlinable
    static var mayPassRequests: Bool { true }

    @usableFromInline
    typealias Body = @Sendable (Input) throws -> Future<Output>

    @inlinable
    static func run(
        _ body: @Sendable (Input) throws -> Future<Output>, value: Input, downstream: FutureStorage<Output>
    ) {
        downstream.follow("Future.then(on:_:)") { try body(value) }
    }
}
