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
    @discardableResult
    public func always<Context: ExecutionContext>(
        on context: Context = .inline, _ body: consuming @escaping @Sendable () throws -> Void
    ) -> Future<Value> {
        storage.chain(Always<Value>.self, on: context, body: consume body)
    }
}

/// `always`: the closure runs whatever the outcome, which then passes on unchanged (by the one
/// failure rule for a failure); what the closure throws rejects instead.
@usableFromInline
enum Always<Value>: StepLogic {
    @usableFromInline
    typealias Body = @Sendable () throws -> Void

    @inlinable
    static func run(
        _ body: @Sendable () throws -> Void, upstream: FutureStorage<Value>, kind: OutcomeKind,
        downstream: FutureStorage<Value>
    ) {
        do {
            try body()
        } catch {
            downstream.fail(.rejected, error: error)
            return
        }
        downstream.resolve(passingOn: upstream, kind: kind)
        // A chain that ends in `always` has said what it does after a failure: the failure it
        // passes on is observed, so the end of such a chain is never reported.
        if kind != .fulfilled { downstream.markFailureObserved() }
    }
}
