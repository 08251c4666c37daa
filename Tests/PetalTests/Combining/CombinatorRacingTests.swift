import Testing

@testable import Petal

@Suite("Combinators: firstResolved")
struct CombinatorFirstResolvedTests {
    @Test("takes the value of the first input to resolve, when it is fulfilled")
    func firstFulfilment() {
        let (future, count) = combined(
            [.fulfil(0), .fulfil(1), .reject(2)], .resolvedAfter, order: [1, 2, 0], { Future.firstResolved(of: $0) }
        )
        #expect(summarize(future.peek()) == "fulfilled(1)")
        #expect(count.value == 1)
    }

    @Test(
        "is cancelled when the first input to resolve failed, passing on its error as the indirect error",
        arguments: Timing.allCases, 0..<failureCases.count
    )
    func firstFailure(timing: Timing, failure: Int) {
        let (resolution, error) = failureCases[failure]
        let (future, count) = combined(
            [.fulfil(0), resolution, .reject(9)], timing, order: [1, 0, 2], { Future.firstResolved(of: $0) }
        )
        // Already resolved inputs are taken in input order: the fulfilled one comes first.
        let expected = timing == .resolvedBefore ? "fulfilled(0)" : "cancelled(\(error))"
        #expect(summarize(future.peek()) == expected)
        #expect(count.value == 1)
    }

    @Test("decides at the first resolution without waiting for inputs still pending")
    func decidesWithoutWaiting() {
        let pending = Promise<Int>()
        let winner = Promise<Int>()
        let future = Future.firstResolved(of: [pending.future, winner.future])
        #expect(future.peek() == nil)
        winner.cancel(withIndirectError: TestError(5))
        #expect(summarize(future.peek()) == "cancelled(E5)")
        pending.fulfil(with: 1)
        #expect(summarize(future.peek()) == "cancelled(E5)")
    }

    @Test(
        "subscribes every input, even after an already resolved one won: its failure is observed, and its other consumers can still stop it"
    )
    func answersForEveryInput() {
        let after = Promise<Int>()
        let stopped = Counter()
        after.cancelWhenRequested { stopped.increment() }
        let future = Future.firstResolved(of: [.fulfilled(with: 3), after.future])
        #expect(summarize(future.peek()) == "fulfilled(3)")
        #expect(stopped.value == 0)
        after.future.requestCancellation()
        #expect(stopped.value == 1)
    }

    @Test("of no futures is already cancelled with an EmptyRaceError")
    func noFutures() {
        let future = Future.firstResolved(of: [Future<Int>]())
        #expect(summarize(future.peek()) == "cancelled(empty(firstResolved(of:)))")
    }
}

@Suite("Combinators: firstFulfilled")
struct CombinatorFirstFulfilledTests {
    @Test("takes the first fulfilment, whatever failed before it", arguments: Timing.allCases)
    func firstFulfilment(timing: Timing) {
        let (future, count) = combined(
            [.reject(0), .fulfil(1), .cancel, .fulfil(3)], timing, order: [0, 2, 3, 1]
        ) { Future.firstFulfilled(of: $0) }
        // Resolved after: input 3 is fulfilled first. Resolved before: input 1 comes first in input order.
        #expect(summarize(future.peek()) == (timing == .resolvedAfter ? "fulfilled(3)" : "fulfilled(1)"))
        #expect(count.value == 1)
    }

    @Test("stays pending while an input that could still be fulfilled is pending")
    func pendingWhileAnInputCanStillWin() {
        let promises = (0..<3).map { _ in Promise<Int>() }
        let future = Future.firstFulfilled(of: promises.map(\.future))
        promises[0].reject(with: TestError(0))
        promises[2].cancel()
        #expect(future.peek() == nil)
        promises[1].fulfil(with: 1)
        #expect(summarize(future.peek()) == "fulfilled(1)")
    }

    @Test(
        "when every input fails, is cancelled with every failure in input order",
        arguments: Timing.allCases
    )
    func allFailed(timing: Timing) {
        let (future, count) = combined(
            [.cancelBecause(0), .reject(1), .cancel, .reject(3)], timing, order: [3, 1, 0, 2],
            { Future.firstFulfilled(of: $0) }
        )
        #expect(
            summarize(future.peek())
                == #"cancelled(all["cancelled(E0)", "rejected(E1)", "cancelled(nil)", "rejected(E3)"])"#
        )
        #expect(count.value == 1)
        let error = future.peek()?.error as? AllFuturesFailedError
        #expect(error?.errors.map(code) == ["E0", "E1", "nil", "E3"])
    }

    @Test("of no futures is already cancelled with an EmptyRaceError")
    func noFutures() {
        let future = Future.firstFulfilled(of: [Future<Int>]())
        #expect(summarize(future.peek()) == "cancelled(empty(firstFulfilled(of:)))")
    }

    @Test("an AllFuturesFailedError describes every failure in input order")
    func allFailedDescription() {
        let error = AllFuturesFailedError(failures: [
            .rejected(TestError(1)), .cancelled(indirectError: nil), .cancelled(indirectError: TestError(2)),
        ])
        #expect(
            error.description
                == "all 3 futures failed: #0 rejected with TestError(code: 1); #1 cancelled; "
                + "#2 cancelled because of TestError(code: 2)"
        )
    }

    @Test("an EmptyRaceError names the combinator")
    func emptyRaceDescription() {
        #expect(
            EmptyRaceError(combinator: "firstResolved(of:)").description
                == "Future.firstResolved(of:) was given no futures, so nothing could ever resolve it"
        )
    }
}
