/// Waiting for several futures to resolve, however they resolve: `allResolved` gathers every
/// outcome into one future that never fails.
///
/// Combinators take no execution context because they run no closure of yours: the combined
/// future is fulfilled on the thread that resolves the last input, inside that resolving call, or
/// before `allResolved` returns if every input was already resolved. It stays pending while any
/// input is pending, unless a cancellation request reaches it: then it is cancelled at once and
/// votes on the inputs still pending that can be asked (see <doc:Cancellation>).
extension Future {
    /// A future fulfilled with the outcome of every one of `futures`, in the order of `futures`,
    /// once all of them have resolved. It is never rejected, and cancelled only by a request.
    ///
    /// ```swift
    /// Future.allResolved(uploads).whenFulfilled { outcomes in
    ///     report(succeeded: outcomes.filter(\.isFulfilled).count, of: outcomes.count)
    /// }
    /// ```
    ///
    /// - Whatever each input's outcome (fulfilled, rejected, or cancelled with or without an
    ///   indirect error), it appears unchanged at the input's index.
    /// - With no futures: already fulfilled with an empty array.
    ///
    /// - Parameters:
    ///   - futures: The futures to wait for; the same future may appear more than once.
    ///   - cancellingUpstream: Whether a request that reaches the result asks the inputs to stop
    ///     (the default): it votes on every input that can pass requests on (see
    ///     <doc:Cancellation>). `false` lets the inputs' work run to its end.
    /// - Returns: A future of all the outcomes, which resolves exactly once.
    @inlinable
    public static func allResolved<Element>(
        _ futures: [Future<Element>], cancellingUpstream: Bool = true
    ) -> Future<Value> where Value == [Outcome<Element>] {
        if futures.isEmpty { return .fulfilled(with: []) }
        return CombinatorState<Outcome<Element>?, [Outcome<Element>]>.combine(
            futures, contributions: futures.count, cancellingUpstream: cancellingUpstream
        ) { state, index, outcome in
            state.contribute({ $0[index] = outcome }, completing: { .fulfilled(movingValues(from: $0)) })
        }
    }

    /// A future fulfilled with the outcome of every one of the given futures, as a tuple in
    /// argument order, once all of them have resolved. It is never rejected, and cancelled only
    /// by a request. The futures may have different value types.
    ///
    /// ```swift
    /// Future.allResolved(saveDraft(post), notifyFollowers(post))
    ///     .whenFulfilled { saved, notified in log(saved, notified) }
    /// ```
    ///
    /// - Whatever each input's outcome, it appears unchanged in the input's place.
    /// - With a single future: a future of its outcome; with none: already fulfilled with `()`.
    ///
    /// - Parameters:
    ///   - futures: The futures to wait for.
    ///   - cancellingUpstream: Whether a request that reaches the result asks the inputs to stop
    ///     (the default): it votes on every input that can pass requests on (see
    ///     <doc:Cancellation>). `false` lets the inputs' work run to its end.
    /// - Returns: A future of all the outcomes, which resolves exactly once.
    @inlinable
    public static func allResolved<each Element>(
        _ futures: repeat Future<each Element>, cancellingUpstream: Bool = true
    ) -> Future<Value> where Value == (repeat Outcome<each Element>) {
        var layout = TupleLayout<(repeat Outcome<each Element>?)>(repeat Outcome<each Element>?.self)
        // No inputs: `Value` is the empty tuple, which the compiler cannot see statically.
        if layout.count == 0 { return .fulfilled(with: () as Any as! Value) }
        let result = FutureStorage<(repeat Outcome<each Element>)>.makePending()
        let state = CombinatorState<(repeat Outcome<each Element>?), (repeat Outcome<each Element>)>.makeTuple(
            resolving: result, count: layout.count
        )
        var linked = false
        for future in repeat each futures {
            if cancellingUpstream { state.linkUpstream(future.storage, of: result, linked: &linked) }
            state.subscribe(future, placing: &layout, contributing: { $0 })
        }
        return Future(storage: result)
    }
}
