import Petal
import Testing

// Plain `import Petal`: these tests use only the public API, so they also check that it is public.

@Suite("Combinators: allResolved")
struct CombinatorAllSettledTests {
    @Test("is fulfilled with every outcome in input order, failures included", arguments: Timing.allCases)
    func everyOutcomeInInputOrder(timing: Timing) {
        let resolutions: [InputResolution] = [.reject(0), .fulfil(1), .cancel, .cancelBecause(3), .fulfil(4)]
        let (future, count) = combined(resolutions, timing, order: [4, 2, 0, 3, 1], { Future.allResolved($0) })
        #expect(future.peek()?.value?.map { summarize($0) } == resolutions.map(\.description))
        #expect(count.value == 1)
    }

    @Test("stays pending until the last input resolves, however the others resolved")
    func pendingUntilTheLast() {
        let promises = (0..<3).map { _ in Promise<Int>() }
        let future = Future.allResolved(promises.map(\.future))
        promises[0].reject(with: TestError(0))
        promises[2].cancel()
        #expect(future.peek() == nil)
        promises[1].fulfil(with: 1)
        #expect(future.peek()?.value?.map { summarize($0) } == ["rejected(E0)", "fulfilled(1)", "cancelled(nil)"])
    }

    @Test("of no futures is already fulfilled with an empty array")
    func noFutures() {
        let future = Future.allResolved([Future<Int>]())
        #expect(future.peek()?.value?.isEmpty == true)
    }

    @Test("over futures of different types is fulfilled with a tuple of their outcomes", arguments: Timing.allCases)
    func tupleOfOutcomes(timing: Timing) {
        let number = Promise<Int>()
        let text = Promise<String>()
        let flag = Promise<Bool>()
        func resolveAll() {
            flag.cancel(withIndirectError: TestError(2))
            number.reject(with: TestError(0))
            text.fulfil(with: "petal")
        }
        if timing == .resolvedBefore { resolveAll() }
        let future: Future<(Outcome<Int>, Outcome<String>, Outcome<Bool>)> = Future.allResolved(
            number.future, text.future, flag.future
        )
        let count = Counter()
        future.whenResolved { _ in count.increment() }
        if timing == .resolvedAfter { resolveAll() }
        let outcomes = future.peek()?.value
        #expect(summarize(outcomes?.0) == "rejected(E0)")
        #expect(summarize(outcomes?.1) == "fulfilled(petal)")
        #expect(summarize(outcomes?.2) == "cancelled(E2)")
        #expect(count.value == 1)
    }

    @Test("over futures of different types stays pending until the last one resolves")
    func tuplePendingUntilTheLast() {
        let number = Promise<Int>()
        let text = Promise<String>()
        let future = Future.allResolved(number.future, text.future)
        number.fulfil(with: 1)
        #expect(future.peek() == nil)
        text.cancel()
        #expect(summarize(future.peek()?.value?.0) == "fulfilled(1)")
        #expect(summarize(future.peek()?.value?.1) == "cancelled(nil)")
    }

    @Test("of one future in the tuple form is a future of its outcome")
    func tupleOfOne() {
        let future: Future<Outcome<Int>> = Future.allResolved(Future<Int>.rejected(with: TestError(7)))
        #expect(summarize(future.peek()?.value) == "rejected(E7)")
    }

    @Test("of no futures in the tuple form is already fulfilled with the empty tuple")
    func tupleOfNone() {
        let future: Future<Void> = Future.allResolved()
        #expect(future.peek()?.isFulfilled == true)
    }
}
