/// `always`: work that runs whatever the outcome, such as clean-up.
extension Future {
    /// Runs `body` once the receiver resolves, however it resolves.
    ///
    /// - Where and when: `body` runs once on `context`, after the receiver is fulfilled,
    ///   rejected or cancelled.
    /// - Returns: a future resolved after `body` has run: fulfilled with the receiver's value;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is
    ///   rejected or cancelled (the failure keeps travelling down the chain); rejected with what
    ///   `body` throws.
    @inlinable
    public func always<Context: ExecutionContext>(
        on context: Context = .inline, _ body: @escaping @Sendable () throws -> Void
    ) -> Future<Value> {
        storage.chain(AlwaysStep(context: context, body: body))
    }
}

/// The step of `always`.
@usableFromInline
struct AlwaysStep<Value, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    let context: Context
    @usableFromInline
    let body: @Sendable () throws -> Void

    @inlinable
    init(context: Context, body: @escaping @Sendable () throws -> Void) {
        self.context = context
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Value>, kind: OutcomeKind, downstream: FutureStorage<Value>) {
        do {
            try body()
        } catch {
            downstream.fail(.rejected, error: error)
            return
        }
        downstream.resolve(passingOn: upstream, kind: kind)
    }
}
