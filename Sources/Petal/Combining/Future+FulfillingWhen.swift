/// Waiting for several futures to fulfil: `fulfillingWhen` combines futures into one future of
/// all their values.
///
/// The combined future is downstream of every input. It is fulfilled once all inputs are
/// fulfilled, and cancelled as soon as one input fails, with that input's error as its indirect
/// error: a rejected input's error, or a cancelled input's own indirect error (which may be
/// `nil`). The first failure decides; later failures, and values that arrive after it, change
/// nothing and are released at once. A combined future is never rejected: no work of its own can
/// fail. The first failure also gives up on the inputs still pending: each one whose work can be
/// asked gets a cancellation vote, so it stops unless another consumer still wants it; a request
/// on the combined future cancels it at once and votes the same way (see <doc:Cancellation>).
///
/// Combinators take no execution context because they run no closure of yours: the combined
/// future resolves on the thread that resolves the deciding input, inside that resolving call,
/// or before `fulfillingWhen` returns if the inputs were already resolved. Observe the combined
/// future on whatever context you like. Once it is decided, it lets go of the inputs' values
/// even if some inputs never resolve.
extension Future {
    /// A future fulfilled with the values of all `futures`, in the order of `futures`, once every
    /// one is fulfilled; cancelled as soon as any of them fails.
    ///
    /// ```swift
    /// let posts: [Future<Post>] = ids.map(fetchPost)
    /// Future.fulfillingWhen(posts).whenFulfilled { posts in show(posts) }
    /// ```
    ///
    /// - When every input is fulfilled: fulfilled with their values, in input order, whatever
    ///   order they were fulfilled in.
    /// - When an input is rejected: cancelled, with the rejection error as the indirect error.
    /// - When an input is cancelled: cancelled, with that input's indirect error (possibly `nil`).
    /// - Only the first failure counts; the combined future waits for no other input, and votes
    ///   on those still pending (unless `cancellingUpstream` is `false`).
    /// - With no futures: already fulfilled with an empty array.
    ///
    /// - Parameters:
    ///   - futures: The futures to wait for; the same future may appear more than once.
    ///   - cancellingUpstream: Whether giving up asks the inputs to stop (the default): when the
    ///     result is decided while inputs are still pending, and when a request reaches the
    ///     result, it votes on every input that can pass requests on (see <doc:Cancellation>).
    ///     `false` lets the inputs' work run to its end.
    /// - Returns: A future of all the values, which resolves exactly once.
    @inlinable
    public static func fulfillingWhen<Element>(
        _ futures: [Future<Element>], cancellingUpstream: Bool = true
    ) -> Future<Value> where Value == [Element] {
        if futures.isEmpty { return .fulfilled(with: []) }
        return CombinatorState<Element?, [Element]>.combine(
            futures, contributions: futures.count, cancellingUpstream: cancellingUpstream
        ) { state, index, outcome in
            guard case .fulfilled(let value) = outcome else {
                return state.decide(.cancelled(indirectError: outcome.error))
            }
            state.contribute({ $0[index] = value }, completing: { .fulfilled(movingValues(from: $0)) })
        }
    }

    /// A future fulfilled with the values of all the given futures, as a tuple in argument
    /// order, once every one is fulfilled; cancelled as soon as any of them fails. The futures
    /// may have different value types.
    ///
    /// ```swift
    /// Future.fulfillingWhen(fetchUser(id), fetchPosts(id), fetchAvatar(id))
    ///     .whenFulfilled { user, posts, avatar in show(user, posts, avatar) }
    /// ```
    ///
    /// - When every input is fulfilled: fulfilled with `(value1, value2, ...)`.
    /// - When an input is rejected: cancelled, with the rejection error as the indirect error.
    /// - When an input is cancelled: cancelled, with that input's indirect error (possibly `nil`).
    /// - Only the first failure counts; the combined future waits for no other input, and votes
    ///   on those still pending (unless `cancellingUpstream` is `false`).
    /// - With a single future: a future of its value (a one-element tuple is the value itself);
    ///   with none: already fulfilled with `()`.
    ///
    /// The call reads `Future.fulfillingWhen(a, b)`: the requirement `Value == (repeat each
    /// Element)` lets Swift infer `Value` from the arguments, as `[Element]` does for the array
    /// form. Values are combined without boxing: each input writes its value straight into its
    /// place in one preallocated tuple.
    ///
    /// - Parameters:
    ///   - futures: The futures to wait for.
    ///   - cancellingUpstream: Whether giving up asks the inputs to stop (the default): when the
    ///     result is decided while inputs are still pending, and when a request reaches the
    ///     result, it votes on every input that can pass requests on (see <doc:Cancellation>).
    ///     `false` lets the inputs' work run to its end.
    /// - Returns: A future of all the values, which resolves exactly once.
    @inlinable
    public static func fulfillingWhen<each Element>(
        _ futures: repeat Future<each Element>, cancellingUpstream: Bool = true
    ) -> Future<Value> where Value == (repeat each Element) {
        var layout = TupleLayout<(repeat (each Element)?)>(repeat Optional<each Element>.self)
        // No inputs: `Value` is the empty tuple, which the compiler cannot see statically.
        if layout.count == 0 { return .fulfilled(with: () as Any as! Value) }
        let result = FutureStorage<(repeat each Element)>.makePending()
        let state = CombinatorState<(repeat (each Element)?), (repeat each Element)>.makeTuple(
            resolving: result, count: layout.count
        )
        var linked = false
        for future in repeat each futures {
            // Every input is subscribed, so that its failure is observed even once an earlier
            // one decided (see `CombinatorState.combine`); only those before the decision are
            // linked, as a decided result has no request left to pass on.
            if cancellingUpstream, !state.isDecided { state.linkUpstream(future.storage, of: result, linked: &linked) }
            state.subscribe(future, placing: &layout, contributing: { $0.value })
        }
        return Future(storage: result)
    }
}

/// The values of a completed array-form combinator, moved out of its tail, in input order.
@inlinable
func movingValues<Element>(from slots: UnsafeMutableBufferPointer<Element?>) -> [Element] {
    [Element](unsafeUninitializedCapacity: slots.count) { values, count in
        for index in slots.indices {
            // Every slot holds a value: the state completes only after each input contributed.
            let value = slots.moveElement(from: index).unsafelyUnwrapped
            (values.baseAddress.unsafelyUnwrapped + index).initialize(to: value)
        }
        count = slots.count
    }
}
