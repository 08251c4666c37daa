/// What a chaining method does with its closure when the upstream resolves: the one part that
/// differs between `then`, `recover`, `always` and the rest.
///
/// Each method is a caseless enum conforming to this protocol, and its step is a
/// ``ClosureStep`` of it: one step type for every method, specialised for each, so the stored
/// closure and its context are declared once.
@usableFromInline
protocol StepLogic {
    associatedtype Input
    associatedtype Output
    /// What the step stores: the user's closure (with any argument the method took).
    associatedtype Body

    /// Resolves `downstream` from the outcome `upstream` published with `kind`, with `body`.
    static func run(_ body: Body, upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>)
}

/// The step of a chaining method: the user's closure as given, where it runs, and the method's
/// ``StepLogic``.
@usableFromInline
struct ClosureStep<Logic: StepLogic, Context: ExecutionContext>: ChainStep {
    @usableFromInline
    typealias Input = Logic.Input
    @usableFromInline
    typealias Output = Logic.Output

    @usableFromInline
    let context: Context
    @usableFromInline
    let body: Logic.Body

    @inlinable
    init(_: Logic.Type, on context: Context, body: Logic.Body) {
        self.context = context
        self.body = body
    }

    @inlinable
    func run(upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>) {
        Logic.run(body, upstream: upstream, kind: kind, downstream: downstream)
    }
}

/// The logic of a method that works on the upstream's value only (`then`, `additionally`,
/// `ensure`, `flattened`): the one failure rule, written here once, decides everything else.
///
/// The rule: a step whose upstream failed does not run its closure; its future is cancelled,
/// carrying the upstream's error (or its indirect error) down as its own indirect error.
@usableFromInline
protocol ValueStepLogic: StepLogic {
    /// Resolves `downstream` from the upstream's value; runs only for a fulfilled upstream.
    static func run(_ body: Body, value: Input, downstream: FutureStorage<Output>)
}

extension ValueStepLogic {
    @inlinable
    static func run(_ body: Body, upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>)
    {
        guard kind == .fulfilled else {
            downstream.cancel(following: upstream)
            return
        }
        run(body, value: upstream.value, downstream: downstream)
    }
}

/// The logic of a method that works on the upstream's failure only (`recover`, `mapError`): a
/// fulfilment, or a failure the method does not take, passes on unchanged by the one failure
/// rule (a rejection or cancellation travels down as the indirect error of a cancellation).
@usableFromInline
protocol FailureStepLogic: StepLogic where Input == Output {
    /// Whether the method takes the indirect errors of cancellations too, not only rejections.
    static func includesIndirectErrors(_ body: Body) -> Bool

    /// Resolves `downstream` for the upstream's failure with `error`.
    static func run(_ body: Body, error: any Error, upstream: FutureStorage<Input>, downstream: FutureStorage<Output>)
}

extension FailureStepLogic {
    @inlinable
    static func run(_ body: Body, upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>)
    {
        let error: (any Error)?
        switch kind {
        case .fulfilled: error = nil
        case .rejected: error = upstream.observedError
        case .cancelled: error = includesIndirectErrors(body) ? upstream.observedError : nil
        }
        guard let error else {
            downstream.resolve(passingOn: upstream, kind: kind)
            return
        }
        run(body, error: error, upstream: upstream, downstream: downstream)
    }
}

extension FutureStorage {
    /// Chains the step of `logic` with `body`, run on `context`.
    @inlinable
    func chain<Logic: StepLogic, Context: ExecutionContext>(
        _ logic: Logic.Type, on context: Context, body: Logic.Body
    ) -> Future<Logic.Output> where Logic.Input == Value {
        chain(ClosureStep(logic, on: context, body: body))
    }

    /// Resolves exactly as the future `work` returns (its own work), or rejects with what
    /// `work` throws: the future-returning form of every method.
    ///
    /// With `passingRequests`, this future also votes on the one `work` returns when a request
    /// reaches it (`Future.startFollowing(on:executing:)`); chaining methods pass none on (the
    /// Cancellation article says why), and with the constant `false` the link compiles away.
    @inlinable
    func follow(_ work: () throws -> Future<Value>, passingRequests: Bool = false) {
        let source: Future<Value>
        do {
            source = try work()
        } catch {
            fail(.rejected, error: error)
            return
        }
        // Linked before following: a request that already reached this future finds its action
        // list closed, so the vote added here is cast at once.
        if passingRequests, source.storage.propagatesRequests { source.storage.linkDependent(self) }
        source.storage.subscribe(.forward(self))
    }
}
