/// The part every array combinator shares: a pending combined future, a state with one empty
/// slot per input, and each input subscribed in order until one decides.
extension CombinatorState {
    /// Combines `futures` into a new future: each input, when it resolves, runs
    /// `input(state, index, outcome)`, which contributes to or decides the result.
    ///
    /// Every input is subscribed, even after one that was already resolved decided the result:
    /// the others cannot change it, but they were handed to the combinator, which answers for
    /// their failures (a fan-out whose calls a circuit breaker refused at once reported each of
    /// the 31 calls after the first as a failure nobody observed). Only the inputs before the
    /// decision are linked for `cancellingUpstream`: a link after it would count a dependent
    /// whose vote never comes, and keep the input's other consumers from stopping it.
    /// `input` captures nothing (the state and the index are passed in), so each subscription is
    /// one callback, as it would be written out.
    ///
    /// With `cancellingUpstream`, the combined future depends on every input that can pass
    /// requests on (see ``linkUpstream(_:of:linked:)``).
    @inlinable
    static func combine<Element, Slot>(
        _ futures: [Future<Element>], contributions: Int, cancellingUpstream: Bool,
        _ input: @escaping @Sendable (CombinatorState, Int, Outcome<Element>) -> Void
    ) -> Future<Result> where Tail == Slot? {
        let result = FutureStorage<Result>.makePending()
        let slots = contributions == 0 ? 0 : futures.count
        let state = make(resolving: result, contributions: contributions, tailCount: slots) {
            $0.initialize(repeating: nil, count: slots)
        }
        let shared = state.shared
        var linked = false
        var counted: [FutureStorage<Element>] = []
        let receiver = InputReceiver<Element> { index, outcome in input(shared.value, index, outcome) }
        // Each input borrowed from the array, which holds it for the whole loop: a copy of it
        // cost three retains and their releases per input (callgrind, the fan-out at N = 32).
        futures.withUnsafeBufferPointer { inputs in
            for index in inputs.indices {
                Unmanaged.passUnretained(inputs[index].storage)._withUnsafeGuaranteedRef { input in
                    if cancellingUpstream, !state.isDecided {
                        result.dependOnUpstream(input, counting: &counted, of: inputs.count, linked: &linked) {
                            { shared.value.decide(.cancelled(indirectError: nil)) }
                        }
                    }
                    input.subscribe(.input(receiver, index: index))
                }
            }
        }
        result.addUpstreamVotes(counted)
        return Future(storage: result)
    }

    /// Makes `result`, this state's combined future, a counted dependent of `input`, if requests
    /// can travel from there: deciding before `input` resolves then asks it (by vote), and a
    /// request that reaches `result` cancels it at once and votes on every input linked.
    /// `linked` is shared by the inputs of one call (see `FutureStorage.dependOnUpstream`).
    @inlinable
    func linkUpstream<Input>(_ input: FutureStorage<Input>, of result: FutureStorage<Result>, linked: inout Bool) {
        let shared = self.shared
        result.dependOnUpstream(input, linked: &linked) {
            { shared.value.decide(.cancelled(indirectError: nil)) }
        }
    }
}
