/// How a hedged call resolves its result and subscribes to its copies: `FutureStorage.settle`
/// and `FutureStorage.subscribeStep` as closures, made where `Value` is concrete.
///
/// Why it exists: the hedging loop is compiled once for every value type; made there, the
/// result's waiters and each copy's subscription looked up their types at run time on every
/// call (callgrind: about 330 instructions a look-up, five a call). `Future.hedging` is
/// inlined into its caller, whose specialised code makes these (see `AttemptLoop.begin`).
@usableFromInline
struct ResultHooks<Value> {
    /// Resolves the result (see `FutureStorage.settle`).
    @usableFromInline
    let settle: FutureStorage<Value>.Settle
    /// Subscribes a step to a copy (see `FutureStorage.subscribeStep`).
    @usableFromInline
    let subscribeStep: FutureStorage<Value>.SubscribeStep

    /// The two closures, specialised for the caller's `Value` where this is inlined.
    @inlinable
    init() {
        settle = { FutureStorage.settle($0, copying: $1, kind: $2, error: $3) }
        subscribeStep = { FutureStorage.subscribeStep($0, $1) }
    }
}
