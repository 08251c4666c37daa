import Synchronization
import Testing

@testable import Petal

/// Promises whose producers count the requests to stop that reach them.
private struct Producers: Sendable {
    let promises: [Promise<Int>]
    let stops: [Counter]

    init(_ count: Int, askable: Bool = true) {
        var promises: [Promise<Int>] = []
        var stops: [Counter] = []
        for _ in 0..<count {
            let promise = Promise<Int>()
            let stopped = Counter()
            if askable { promise.cancelWhenRequested { stopped.increment() } }
            promises.append(promise)
            stops.append(stopped)
        }
        self.promises = promises
        self.stops = stops
    }

    var futures: [Future<Int>] { promises.map(\.future) }
    var stopCounts: [Int] { stops.map(\.value) }
}

/// Set once the iterator was made: a resolver that reads it set began its resolution after.
private final class MadeFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    /// Releasing: the iterator's subscriptions happen before a reader that sees the flag.
    func set() { flag.store(true, ordering: .releasing) }

    var isSet: Bool { flag.load(ordering: .acquiring) }
}

@Suite("Observing: completions in the order they come")
struct CompletionsTests {
    @Test("the inputs come as they resolve, the resolved ones first, each once, then the end")
    func orderOfArrival() async {
        let producers = Producers(4)
        producers.promises[3].fulfil(with: 30)
        var iterator = Future.completions(of: producers.futures).makeAsyncIterator()
        var seen: [String] = []
        if let first = await iterator.next() { seen.append("\(first.index):\(describe(first.outcome))") }
        producers.promises[1].reject(with: TestError(7))
        producers.promises[2].fulfil(with: 20)
        producers.promises[0].fulfil(with: 0)
        while let completion = await iterator.next() {
            seen.append("\(completion.index):\(describe(completion.outcome))")
        }
        #expect(seen == ["3:fulfilled(30)", "1:rejected(TestError(code: 7))", "2:fulfilled(20)", "0:fulfilled(0)"])
        #expect(await iterator.next() == nil)
        #expect(producers.stopCounts == [0, 0, 0, 0])
    }

    @Test("no inputs: the sequence ends at once")
    func empty() async {
        var count = 0
        for await _ in Future<Int>.completions(of: []) { count += 1 }
        #expect(count == 0)
    }

    @Test("leaving the loop early asks exactly the inputs still pending to stop, once")
    func earlyExit() async {
        let producers = Producers(5)
        producers.promises[2].fulfil(with: 2)
        producers.promises[4].fulfil(with: 4)
        var firsts: [Int] = []
        for await completion in Future.completions(of: producers.futures) {
            firsts.append(completion.index)
            if firsts.count == 2 { break }
        }
        #expect(firsts == [2, 4])
        #expect(producers.stopCounts == [1, 1, 0, 1, 0])
        #expect(producers.futures.map { $0.peek()?.isCancelled } == [true, true, false, true, false])
    }

    @Test("a cancelled task's next() returns nil and asks the pending inputs to stop")
    func taskCancellation() async {
        let producers = Producers(3)
        producers.promises[0].fulfil(with: 0)
        let futures = producers.futures
        let waiting = Promise<Void>()
        let task = Task {
            var seen: [Int] = []
            var iterator = Future.completions(of: futures).makeAsyncIterator()
            if let first = await iterator.next() { seen.append(first.index) }
            waiting.fulfil(with: ())
            while let completion = await iterator.next() { seen.append(completion.index) }
            return seen
        }
        _ = await waiting.future.outcome
        task.cancel()
        #expect(await task.value == [0])
        #expect(producers.stopCounts == [0, 1, 1])
    }

    @Test("another consumer keeps an input's work running: a vote is not a request")
    func sharedInput() async {
        let producers = Producers(3)
        let other = producers.futures[0].then { $0 + 1 }  // a counted dependent that does not give up
        producers.promises[2].fulfil(with: 2)
        for await _ in Future.completions(of: producers.futures) { break }
        #expect(producers.stopCounts == [0, 1, 0])
        #expect(producers.futures[0].peek() == nil)
        producers.promises[0].fulfil(with: 1)
        #expect(other.peek()?.value == 2)
    }

    @Test("inputs nobody can ask: no votes, and the completions still come")
    func plainInputs() async {
        let producers = Producers(3, askable: false)
        let futures = producers.futures
        let task = Task {
            var indices: [Int] = []
            for await completion in Future.completions(of: futures) { indices.append(completion.index) }
            return indices
        }
        producers.promises[1].fulfil(with: 1)
        producers.promises[0].fulfil(with: 0)
        producers.promises[2].fulfil(with: 2)
        let indices = await task.value
        #expect(indices.sorted() == [0, 1, 2])
    }

    @Test("inputs resolved from many threads while the consumer waits: each comes once, nothing lost")
    func contention() async {
        let rounds = raceScaled(200)
        let inputs = 64
        let threads = 4
        for round in 0..<rounds {
            let producers = Producers(inputs)
            let promises = producers.promises
            let futures = producers.futures
            let consumer = Task {
                var indices: [Int] = []
                for await completion in Future.completions(of: futures) {
                    #expect(completion.outcome.value == completion.index)
                    indices.append(completion.index)
                }
                return indices
            }
            await Task.detached {
                onThreads(threads) { thread in
                    for index in stride(from: thread, to: inputs, by: threads) { promises[index].fulfil(with: index) }
                }
            }.value
            let indices = await consumer.value
            #expect(indices.sorted() == Array(0..<inputs), "round \(round)")
            #expect(producers.stopCounts.allSatisfy { $0 == 0 })
        }
    }

    @Test(
        "while the iterator is made, one thread resolves the inputs in a shuffled order: those resolved after it was made come in that order, after all the others"
    )
    func orderAgainstTheIteratorsMaking() async {
        let racer = Racer()
        defer { racer.stop() }
        let rounds = raceScaled(2_000)
        let inputs = 32
        var misordered = 0
        var roundsWithLate = 0
        var roundsWithEarly = 0
        for round in 0..<rounds {
            var generator = SeededGenerator(seed: UInt64(round))
            let order = Array(0..<inputs).shuffled(using: &generator)
            let producers = Producers(inputs, askable: false)
            let futures = producers.futures
            let made = MadeFlag()
            // The resolutions that began after the iterator was made, in the order made.
            let after = Recorder<Int>()
            var iterator_: FutureCompletions<Int>.Iterator?
            racer.round(
                round,
                {
                    iterator_ = Future.completions(of: futures).makeAsyncIterator()
                    made.set()
                },
                {
                    for index in order {
                        let isAfter = made.isSet
                        producers.promises[index].fulfil(with: index)
                        if isAfter { after.record(index) }
                    }
                })
            guard var iterator = iterator_ else { return }
            var seen: [Int] = []
            while let completion = await iterator.next() { seen.append(completion.index) }
            #expect(seen.sorted() == Array(0..<inputs))
            let late = after.events
            if !late.isEmpty { roundsWithLate += 1 }
            if late.count < inputs { roundsWithEarly += 1 }
            // Every input resolved after the iterator was made comes in its resolution order,
            // after every input resolved before (which may come in the collection's order).
            if Array(seen.suffix(late.count)) != late { misordered += 1 }
        }
        #expect(misordered == 0)
        // Resolutions after the iterator was made, and before, both happened (at least in the
        // rounds the racer runs in turn; how often they mix within a round is the machine's).
        #expect(roundsWithLate > 0 && roundsWithEarly > 0)
    }

    @Test("leaving early while other threads resolve: every input asked or resolved, none asked twice")
    func earlyExitUnderContention() async {
        let rounds = raceScaled(200)
        let inputs = 32
        for _ in 0..<rounds {
            let producers = Producers(inputs)
            let promises = producers.promises
            let futures = producers.futures
            let resolver = Task.detached {
                onThreads(2) { thread in
                    for index in stride(from: thread, to: inputs, by: 2) { promises[index].fulfil(with: index) }
                }
            }
            var taken = 0
            for await _ in Future.completions(of: futures) {
                taken += 1
                if taken == 3 { break }
            }
            await resolver.value
            let stops = producers.stopCounts
            let cancelled = futures.count { $0.peek()?.isCancelled == true }
            let fulfilled = futures.count { $0.peek()?.value != nil }
            #expect(stops.allSatisfy { $0 <= 1 })
            #expect(stops.reduce(0, +) == cancelled)
            #expect(cancelled + fulfilled == inputs && fulfilled >= 3)
        }
    }
}
