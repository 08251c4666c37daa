import Testing

@testable import Petal

@Suite("Combinators: memory")
struct CombinatorMemoryTests {
    @Test("a fulfillingWhen decided by a failure releases the values it gathered, though an input never resolves")
    func gatheredValuesReleasedOnDecision() {
        weak var gathered: Tracked?
        let never = Promise<Tracked>()
        let future: Future<[Tracked]>
        do {
            let first = Promise<Tracked>()
            let failing = Promise<Tracked>()
            future = Future.fulfillingWhen([first.future, never.future, failing.future])
            let value = Tracked(1)
            gathered = value
            first.fulfil(with: value)
            #expect(gathered != nil)
            failing.reject(with: TestError(1))
        }
        #expect(summarize(future.peek()) == "cancelled(E1)")
        #expect(gathered == nil)
        withExtendedLifetime(never) {}
    }

    @Test("a tuple fulfillingWhen decided by a failure releases the values it gathered, though an input never resolves")
    func tupleGatheredValuesReleasedOnDecision() {
        weak var gathered: Tracked?
        let never = Promise<Int>()
        let future: Future<(Tracked, Int, String)>
        do {
            let first = Promise<Tracked>()
            let failing = Promise<String>()
            future = Future.fulfillingWhen(first.future, never.future, failing.future)
            let value = Tracked(1)
            gathered = value
            first.fulfil(with: value)
            failing.cancel(withIndirectError: TestError(2))
        }
        #expect(summarize(future.peek()) == "cancelled(E2)")
        #expect(gathered == nil)
        withExtendedLifetime(never) {}
    }

    @Test("a value arriving after the decision is not kept")
    func lateValueNotKept() {
        weak var late: Tracked?
        let never = Promise<Tracked>()
        do {
            let latePromise = Promise<Tracked>()
            let future = Future.fulfillingWhen([latePromise.future, never.future, .rejected(with: TestError(1))])
            let value = Tracked(2)
            late = value
            latePromise.fulfil(with: value)
            #expect(summarize(future.peek()) == "cancelled(E1)")
        }
        #expect(late == nil)
        withExtendedLifetime(never) {}
    }

    @Test(
        "a decided combinator lets go of its combined future and its value, though an input never resolves",
        arguments: ["fulfillingWhen", "firstResolved", "firstFulfilled"]
    )
    func combinedFutureReleasedOnDecision(combinator: String) {
        weak var combined: AnyObject?
        weak var value: Tracked?
        let never = Promise<Tracked>()
        do {
            let winner = Promise<Tracked>()
            let tracked = Tracked(3)
            value = tracked
            switch combinator {
            case "fulfillingWhen":
                let future = Future.fulfillingWhen(never.future, winner.future)
                combined = future.storage
                winner.reject(with: TrackedError(tracked))
                #expect(future.isResolved)
            case "firstResolved":
                let future = Future.firstResolved(of: [never.future, winner.future])
                combined = future.storage
                winner.fulfil(with: tracked)
                #expect(future.isResolved)
            default:
                let future = Future.firstFulfilled(of: [never.future, winner.future])
                combined = future.storage
                winner.fulfil(with: tracked)
                #expect(future.isResolved)
            }
        }
        #expect(combined == nil)
        #expect(value == nil)
        withExtendedLifetime(never) {}
    }

    @Test("a combinator that can never complete frees what it gathered when its inputs are freed")
    func undecidedStateFreedWithItsInputs() {
        weak var gathered: Tracked?
        weak var tupleGathered: Tracked?
        do {
            // Pending storages without a promise: never resolved, freed with this scope along with
            // the callback each holds (in its inline slot, hence one storage per combinator).
            let orphan = Future<Tracked>(storage: .makePending())
            let otherOrphan = Future<Int>(storage: .makePending())
            let value = Tracked(4)
            gathered = value
            let settled = Future.allResolved([.fulfilled(with: value), orphan])
            let other = Tracked(5)
            tupleGathered = other
            let tuple = Future.fulfillingWhen(Future.fulfilled(with: other), otherOrphan)
            #expect(settled.peek() == nil)
            #expect(tuple.peek() == nil)
        }
        #expect(gathered == nil)
        #expect(tupleGathered == nil)
    }

    @Test("inputs abandoned unresolved cancel the combined futures with the abandonment as indirect error")
    func abandonedInputs() {
        let joined: Future<[Int]>
        let settled: Future<[Outcome<Int>]>
        do {
            let promises = (0..<2).map { _ in Promise<Int>() }
            joined = Future.fulfillingWhen(promises.map(\.future))
            settled = Future.allResolved(promises.map(\.future))
            promises[1].fulfil(with: 1)
        }
        #expect(joined.peek()?.error is AbandonedPromiseError)
        #expect(joined.peek()?.isCancelled == true)
        #expect(settled.peek()?.value?[0].error is AbandonedPromiseError)
        #expect(settled.peek()?.value?[1].value == 1)
    }
}

/// An error that keeps a tracked object alive for as long as the error lives.
private struct TrackedError: Error {
    let object: Tracked
    init(_ object: Tracked) { self.object = object }
}
