/// Racing futures: the first of several to resolve, or to be fulfilled, decides one future.
///
/// The raced future is downstream of every input, so it is never rejected: a failure that decides
/// it cancels it, with the input's error as its indirect error. Later inputs change nothing;
/// their values are released as they arrive. Once decided, the race gives up on the losers: each
/// one whose work can be asked (a job's future, a promise with a cancellation handler, a chain
/// onto one) gets a cancellation vote, so it stops unless another consumer still wants it; a
/// request on the raced future cancels it at once and votes the same way (see <doc:Cancellation>).
///
/// Combinators take no execution context because they run no closure of yours: the raced future
/// resolves on the thread that resolves the deciding input, inside that resolving call, or before
/// the combinator returns if an input was already resolved (the earliest in the array wins then,
/// and later ones are not even subscribed to). "First" is the first input whose callback runs;
/// between inputs resolved at the same moment on different threads, either may win.
extension Future {
    /// A future that resolves as soon as any of `futures` resolves, like it.
    ///
    /// ```swift
    /// Future.firstResolved(of: [primary.fetch(key), replica.fetch(key)])
    /// ```
    ///
    /// - When the first input to resolve is fulfilled: fulfilled with its value.
    /// - When it is rejected: cancelled, with the rejection error as the indirect error.
    /// - When it is cancelled: cancelled, with that input's indirect error (possibly `nil`).
    /// - With no futures: already cancelled, with an ``EmptyRaceError`` as the indirect error
    ///   (nothing could ever resolve it).
    ///
    /// - Parameters:
    ///   - futures: The futures to race.
    ///   - cancellingUpstream: Whether giving up asks the inputs to stop (the default): when the
    ///     result is decided while inputs are still pending, and when a request reaches the
    ///     result, it votes on every input that can pass requests on (see <doc:Cancellation>).
    ///     `false` lets the inputs' work run to its end.
    /// - Returns: A future that resolves exactly once, like the first input to resolve.
    @inlinable
    public static func firstResolved(of futures: [Future<Value>], cancellingUpstream: Bool = true) -> Future<Value> {
        if futures.isEmpty { return .cancelled(withIndirectError: EmptyRaceError(combinator: "firstResolved(of:)")) }
        // Every input decides; none contributes, so there is nothing to count and no tail.
        return CombinatorState<Never?, Value>.combine(
            futures, contributions: 0, cancellingUpstream: cancellingUpstream
        ) { state, _, outcome in
            state.decide(outcome.isFulfilled ? outcome : .cancelled(indirectError: outcome.error))
        }
    }

    /// A future fulfilled with the value of whichever of `futures` is fulfilled first; cancelled
    /// only when every one of them has failed.
    ///
    /// ```swift
    /// Future.firstFulfilled(of: mirrors.map { download(file, from: $0) })
    /// ```
    ///
    /// - When an input is fulfilled: fulfilled with its value, if no input was fulfilled before.
    ///   Failures before it are forgotten.
    /// - When every input has failed: cancelled, with an ``AllFuturesFailedError`` as the
    ///   indirect error, holding how each input failed, in input order.
    /// - With no futures: already cancelled, with an ``EmptyRaceError`` as the indirect error.
    ///
    /// - Parameters:
    ///   - futures: The futures to race.
    ///   - cancellingUpstream: Whether giving up asks the inputs to stop (the default): when the
    ///     result is decided while inputs are still pending, and when a request reaches the
    ///     result, it votes on every input that can pass requests on (see <doc:Cancellation>).
    ///     `false` lets the inputs' work run to its end.
    /// - Returns: A future that resolves exactly once: with the first value, or cancelled once
    ///   all inputs failed.
    @inlinable
    public static func firstFulfilled(of futures: [Future<Value>], cancellingUpstream: Bool = true) -> Future<Value> {
        if futures.isEmpty { return .cancelled(withIndirectError: EmptyRaceError(combinator: "firstFulfilled(of:)")) }
        // Failures contribute; a fulfilment decides.
        return CombinatorState<Outcome<Never>?, Value>.combine(
            futures, contributions: futures.count, cancellingUpstream: cancellingUpstream
        ) { state, index, outcome in
            let failure: Outcome<Never>
            switch outcome {
            case .fulfilled: return state.decide(outcome)
            case .rejected(let error): failure = .rejected(error)
            case .cancelled(let indirectError): failure = .cancelled(indirectError: indirectError)
            }
            state.contribute(
                { $0[index] = failure },
                completing: { .cancelled(indirectError: AllFuturesFailedError(failures: movingValues(from: $0))) }
            )
        }
    }
}
