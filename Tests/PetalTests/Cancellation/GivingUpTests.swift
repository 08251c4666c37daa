import Petal
import Testing

/// A promise whose owner answers cancellation requests, counting them: the work a combinator or
/// a timeout can ask to stop.
final class AskablePromise: Sendable {
    let promise = Promise<Int>()
    let asked = Counter()

    /// `cancelling`: the handler cancels the promise, as a producer that stops would.
    init(cancelling: Bool = false) {
        let promise = self.promise
        let asked = self.asked
        // Weakly: a handler holding its own promise would keep an input nobody asks or
        // resolves alive for ever (leak detection catches it).
        promise.whenCancellationRequested { [weak promise] in
            asked.increment()
            if cancelling { promise?.cancel() }
        }
    }

    var future: Future<Int> { promise.future }
}

/// Combinators and timeouts give up on work nobody waits for: they vote for the cancellation of
/// the inputs still pending, and pass requests on their own future to their inputs.
@Suite("Cancellation: giving up asks the inputs")
struct GivingUpTests {
    @Test("a decided race asks every loser still pending, once, and never the winner")
    func raceAsksLosers() {
        for race in [
            { Future.firstResolved(of: $0) }, { Future.firstFulfilled(of: $0) },
        ] as [@Sendable ([Future<Int>]) -> Future<Int>] {
            let inputs = (0..<4).map { _ in AskablePromise() }
            let raced = race(inputs.map(\.future))
            #expect(inputs.allSatisfy { $0.asked.value == 0 })
            inputs[2].promise.fulfil(with: 2)
            #expect(raced.peek()?.value == 2)
            #expect(inputs.map(\.asked.value) == [1, 1, 0, 1])
            // The losers keep their own say: asked, not resolved. (Kept alive past the check:
            // released any earlier, a promise is abandoned and its future cancelled.)
            withExtendedLifetime(inputs) {
                #expect(inputs[0].future.peek() == nil)
            }
        }
    }

    @Test("firstFulfilled gives up only on a fulfilment: failures before it ask nobody")
    func firstFulfilledWaitsForAValue() {
        let inputs = (0..<3).map { _ in AskablePromise() }
        let raced = Future.firstFulfilled(of: inputs.map(\.future))
        inputs[0].promise.reject(with: TestError(1))
        #expect(inputs.map(\.asked.value) == [0, 0, 0])
        inputs[1].promise.fulfil(with: 1)
        #expect(raced.peek()?.value == 1)
        #expect(inputs.map(\.asked.value) == [0, 0, 1])
    }

    @Test("fulfillingWhen's first failure asks the inputs still pending, array and tuple forms")
    func fulfillingWhenAsksTheRest() {
        let inputs = (0..<4).map { _ in AskablePromise() }
        let combined = Future.fulfillingWhen(inputs.map(\.future))
        inputs[0].promise.fulfil(with: 0)
        inputs[3].promise.reject(with: TestError(3))
        #expect(describe(combined.peek()) == "cancelled(\(TestError(3)))")
        #expect(inputs.map(\.asked.value) == [0, 1, 1, 0])

        let first = AskablePromise()
        let second = AskablePromise()
        let tuple = Future.fulfillingWhen(first.future, second.future.then { "\($0)" })
        first.promise.cancel(withIndirectError: TestError(5))
        #expect(describe(tuple.peek()) == "cancelled(\(TestError(5)))")
        // The chained input votes on its own upstream: asked through it.
        #expect(first.asked.value == 0)
        #expect(second.asked.value == 1)
    }

    @Test("the inputs are asked before the combined future's observers run")
    func askedBeforeObservers() {
        let inputs = (0..<3).map { _ in AskablePromise(cancelling: true) }
        let combined = Future.fulfillingWhen(inputs.map(\.future))
        let seen = Recorder<[Bool]>()
        combined.whenResolved { _ in seen.record(inputs.map { $0.future.isResolved }) }
        inputs[1].promise.reject(with: TestError(1))
        #expect(seen.events == [[true, true, true]])
    }

    @Test("a request on a combined future cancels it at once and asks every input still pending")
    func requestTravelsToInputs() {
        let combinators: [@Sendable ([Future<Int>]) -> Future<Void>] = [
            { Future.firstResolved(of: $0).then { _ in } },
            { Future.firstFulfilled(of: $0).then { _ in } },
            { Future.fulfillingWhen($0).then { _ in } },
            { Future.allResolved($0).then { _ in } },
        ]
        for combine in combinators {
            let inputs = (0..<3).map { _ in AskablePromise() }
            let chained = combine(inputs.map(\.future))
            chained.requestCancellation()
            #expect(describe(chained.peek()) == "cancelled(nil)")
            #expect(inputs.map(\.asked.value) == [1, 1, 1])
        }
        let inputs = (0..<2).map { _ in AskablePromise() }
        let all = Future.allResolved(inputs[0].future, inputs[1].future)
        all.requestCancellation()
        #expect(describe(all.peek()) == "cancelled(nil)")
        #expect(inputs.map(\.asked.value) == [1, 1])
    }

    @Test("an input another consumer still depends on is not asked until that consumer gives up too")
    func sharedInputKeepsRunning() {
        let shared = AskablePromise()
        let other = AskablePromise()
        let consumer = shared.future.then { $0 + 1 }
        let raced = Future.firstResolved(of: [shared.future, other.future])
        other.promise.fulfil(with: 9)
        #expect(raced.peek()?.value == 9)
        // The race voted; `consumer` still wants the work.
        #expect(shared.asked.value == 0)
        #expect(shared.future.isCancellationRequested == false)
        consumer.requestCancellation()
        #expect(shared.asked.value == 1)
    }

    @Test("cancellingUpstream: false lets the inputs run, on a decision and on a request")
    func optOut() {
        let inputs = (0..<3).map { _ in AskablePromise() }
        let raced = Future.firstResolved(of: inputs.map(\.future), cancellingUpstream: false)
        inputs[0].promise.fulfil(with: 0)
        #expect(raced.peek()?.value == 0)
        let combined = Future.fulfillingWhen(inputs.map(\.future), cancellingUpstream: false)
        combined.requestCancellation()
        #expect(combined.peek() == nil)
        #expect(inputs.map(\.asked.value) == [0, 0, 0])
    }

    @Test("inputs that cannot be asked cost the combinator nothing: no cancellation record")
    func plainInputsPayNothing() {
        let inputs = (0..<3).map { _ in Promise<Int>() }
        let raced = Future.firstResolved(of: inputs.map(\.future))
        inputs[1].fulfil(with: 1)
        #expect(raced.peek()?.value == 1)
        #expect(inputs.allSatisfy { !$0.future.hasCancellationRecordForTests })
        #expect(!raced.hasCancellationRecordForTests)
    }

    @Test("a job group asks the other jobs, but a job another consumer chained onto runs on")
    func jobGroupVotes() {
        let jobs = (0..<3).map { _ in ManualJob<Int, Int>() }
        let group = Future.start(running: jobs, with: 1)
        let consumer = jobs[2].future.then { $0 * 2 }
        jobs[0].fail(with: TestError(7))
        #expect(describe(group.peek()) == "cancelled(\(TestError(7)))")
        #expect(jobs[1].state == .cancelled)
        #expect(jobs[2].state == .executing)
        jobs[2].complete(with: 4)
        #expect(consumer.peek()?.value == 8)
    }

    @Test("many threads deciding races: every input left pending is asked exactly once, in every round")
    func racesUnderContention() {
        let rounds = scaled(2_000)
        let asked = Counter()
        let decided = Counter()
        for _ in 0..<rounds {
            let inputs = (0..<4).map { _ in AskablePromise() }
            let raced = Future.firstResolved(of: inputs.map(\.future))
            raced.whenResolved { _ in decided.increment() }
            // Two threads race to decide; inputs 2 and 3 are left to be asked.
            onThreads(2) { inputs[$0].promise.fulfil(with: $0) }
            for input in inputs[2...] {
                #expect(input.asked.value == 1)
                asked.increment()
            }
        }
        #expect(decided.value == rounds)
        #expect(asked.value == 2 * rounds)
    }
}
