import CPetal

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

    /// Whether the method's closure returns a future that the chained future follows, and so
    /// may pass requests on to (see ``ChainStep/mayPassRequests``).
    static var mayPassRequests: Bool { get }
}

extension StepLogic {
    /// Most methods' closures return a value: nothing to pass requests on to.
    @inlinable
    static var mayPassRequests: Bool { false }
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
    static var mayPassRequests: Bool { Logic.mayPassRequests }

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
        _ logic: Logic.Type, on context: Context, body: consuming Logic.Body
    ) -> Future<Logic.Output> where Logic.Input == Value {
        chain(ClosureStep(logic, on: context, body: consume body))
    }

    /// Resolves exactly as the future `work` returns (its own work), or rejects with what
    /// `work` throws: the future-returning form of every method (`method` names it, for the
    /// error of a closure that returns this very future).
    ///
    /// Requests pass on to the future `work` returned (see ``passRequests(to:)``).
    @inlinable
    func follow(_ method: StaticString, _ work: () throws -> Future<Value>) {
        guard let source = futureToFollow(method, work) else { return }
        passRequests(to: source)
        source.subscribe(.forward(self))
    }

    /// Runs `work`, whose future this one is to follow, and returns that future's storage; or
    /// `nil`, with this future already rejected, when `work` threw or returned this very future.
    /// What every future-returning body (a chaining method's, `Future.startFollowing`'s) checks
    /// before it follows.
    @inlinable
    @inline(__always)
    func futureToFollow(_ method: StaticString, _ work: () throws -> Future<Value>) -> FutureStorage<Value>? {
        let source: Future<Value>
        do {
            source = try work()
        } catch {
            fail(.rejected, error: error)
            return nil
        }
        // One comparison of addresses: following itself, the future would wait for ever.
        if source.storage === self {
            failFollowingItself(method)
            return nil
        }
        return source.storage
    }

    /// Passes requests that reach this future, a chained future made able to pass them
    /// (``ChainStep/mayPassRequests``), on to `source`, the future its step's closure returned,
    /// as a counted dependent's vote; or, if `source` cannot be asked, says so, so that nobody
    /// links to this future for nothing from now on.
    ///
    /// Free where `source` cannot be asked (a plain promise's future): one load of its slot
    /// and a plain store of a byte of this future's header.
    @inlinable
    func passRequests<Source>(to source: FutureStorage<Source>) {
        if petal_atomic_word_load(source.cancellationSlot) != 0 {
            passRequestsIfPropagating(to: source)
        } else {
            petal_atomic_u8_store_relaxed(mayPassFlag, 0)
        }
    }

    /// ``passRequests(to:)`` for a `source` that has a cancellation record, or may pass
    /// requests on itself. Inlinable (never inlined) so that it is specialised with its caller.
    @inlinable
    @inline(never)
    final func passRequestsIfPropagating<Source>(to source: FutureStorage<Source>) {
        guard source.propagatesRequests else {
            petal_atomic_u8_store_relaxed(mayPassFlag, 0)
            return
        }
        // Linked first, marked passing after: a request that finds the mark knows the vote is
        // there or will be cast by the link (an action pushed after a request's close runs at
        // once). A request that comes before the mark cancels this future, and still reaches
        // `source` by the same vote: the work the step started is asked either way.
        guard source.addDependent() else {
            petal_atomic_u8_store_relaxed(mayPassFlag, 0)
            return
        }
        addUpstreamVote(on: source)
        markPassing()
    }
}
