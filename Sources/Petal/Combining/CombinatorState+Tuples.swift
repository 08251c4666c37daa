/// The tuple-valued combinators (`fulfillingWhen` and `allResolved` over a parameter pack): the
/// tail is one tuple of optional slots, one per input, which ``TupleLayout`` places; the result
/// is the tuple of what the slots hold once every input has contributed.
extension CombinatorState {
    /// A state whose slots are all empty, expecting `count` contributions.
    @inlinable
    static func makeTuple<each Element>(resolving result: FutureStorage<Result>, count: Int) -> CombinatorState
    where Tail == (repeat (each Element)?), Result == (repeat each Element) {
        make(resolving: result, contributions: count, tailCount: 1) {
            $0.initialize(to: (repeat Optional<each Element>.none))
        }
    }

    /// Stores `element` in the slot at `offset` (unless the result is decided); the last
    /// contribution fulfils the result with every slot's element, in input order.
    @inlinable
    func contribute<Slot, each Element>(_ element: Slot, at offset: Int)
    where Tail == (repeat (each Element)?), Result == (repeat each Element) {
        contribute(
            { TupleLayout<Tail>.element(of: Slot?.self, at: offset, in: $0).pointee = element },
            completing: { slots in
                // Every slot holds its element: the state completes only after each contributed.
                let elements = slots.baseAddress.unsafelyUnwrapped.move()
                return .fulfilled((repeat (each elements).unsafelyUnwrapped))
            }
        )
    }

    /// Subscribes one input, whose slot `layout` places after the slots of the inputs before it:
    /// `element` gives what its outcome contributes, or `nil` when the outcome decides the
    /// result, cancelled with the outcome's error.
    @inlinable
    func subscribe<Input, Slot, each Element>(
        _ input: Future<Input>, placing layout: inout TupleLayout<Tail>,
        contributing element: @escaping @Sendable (Outcome<Input>) -> Slot?
    ) where Tail == (repeat (each Element)?), Result == (repeat each Element) {
        let offset = layout.placeNext(Slot?.self)
        let shared = self.shared
        input.storage.subscribe(
            .resolved { outcome in
                guard let contribution = element(outcome) else {
                    return shared.value.decide(.cancelled(indirectError: outcome.error))
                }
                shared.value.contribute(contribution, at: offset)
            }
        )
    }
}
