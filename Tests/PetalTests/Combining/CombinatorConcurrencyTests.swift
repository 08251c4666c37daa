import Testing

@testable import Petal

/// A combined future made on some thread, watched for the test to check after every thread has
/// finished: its outcome, described, and how many times it resolved.
private struct Watched: Sendable {
    let name: String
    let outcome: @Sendable () -> String
    let resolutions: Counter

    init<Value: Sendable>(_ name: String, _ future: Future<Value>, describing: @escaping @Sendable (Value) -> String) {
        self.name = name
        let resolutions = Counter()
        future.whenResolved { _ in resolutions.increment() }
        self.resolutions = resolutions
        outcome = {
            switch future.peek() {
            case .fulfilled(let value)?: "fulfilled(\(describing(value)))"
            case let other: summarize(other)
            }
        }
    }
}

/// What each input of a round does: every input fulfils in some rounds, one, several or all fail
/// in others, each failure kind in turn.
private func plan(round: Int, inputs: Int) -> [InputResolution] {
    (0..<inputs).map { index in
        let fails: Bool
        switch round % 4 {
        case 0: fails = false
        case 1: fails = index == round % inputs
        case 2: fails = index % 3 == round % 3
        default: fails = true
        }
        guard fails else { return .fulfil(round * 100 + index) }
        switch (round + index) % 3 {
        case 0: return .reject(index)
        case 1: return .cancel
        default: return .cancelBecause(index)
        }
    }
}

/// The outcomes a combinator over `resolutions` may end with, described; several when which input
/// comes first depends on the threads.
private func allowed(_ combinator: String, _ resolutions: [InputResolution]) -> Set<String> {
    let failures = resolutions.filter { !$0.outcome.isFulfilled }
    let values = resolutions.compactMap(\.outcome.value)
    let cancellations = Set(failures.map { "cancelled(\(code($0.outcome.error)))" })
    switch combinator {
    case "fulfillingWhen", "fulfillingWhen(a, b, c)":
        return failures.isEmpty ? ["fulfilled(\(values))"] : cancellations
    case "allResolved", "allResolved(a, b, c)":
        return ["fulfilled(\(resolutions.map(\.description)))"]
    case "firstResolved":
        return cancellations.union(values.map { "fulfilled(\($0))" })
    default:  // firstFulfilled
        if values.isEmpty { return ["cancelled(all\(resolutions.map(\.description)))"] }
        return Set(values.map { "fulfilled(\($0))" })
    }
}

@Suite("Combinators: concurrency")
struct CombinatorConcurrencyTests {
    @Test("combinators made and resolved on many threads each resolve once, with an exact result")
    func manyThreads() {
        let rounds = scaled(300)
        let inputCount = 12
        let makers = 2
        let resolvers = 2
        let combinatorsPerMaker = 3
        for round in 0..<rounds {
            let resolutions = plan(round: round, inputs: inputCount)
            let promises = (0..<inputCount).map { _ in Promise<Int>() }
            let futures = promises.map(\.future)
            let watched = Recorder<Watched>()
            onThreads(makers + resolvers) { thread in
                guard thread < makers else {
                    // Each resolver takes every other input, one from the front, one from the back,
                    // so resolutions overlap the makers' subscriptions and each other.
                    var indices = Array(stride(from: thread - makers, to: inputCount, by: resolvers))
                    if thread % 2 == 1 { indices.reverse() }
                    for index in indices { promises[index].resolve(with: resolutions[index].outcome) }
                    return
                }
                for _ in 0..<combinatorsPerMaker {
                    let (a, b, c) = (futures[0], futures[inputCount / 2], futures[inputCount - 1])
                    watched.record(Watched("fulfillingWhen", Future.fulfillingWhen(futures)) { "\($0)" })
                    watched.record(
                        Watched("allResolved", Future.allResolved(futures)) { "\($0.map { summarize($0) })" }
                    )
                    watched.record(Watched("firstResolved", Future.firstResolved(of: futures)) { "\($0)" })
                    watched.record(Watched("firstFulfilled", Future.firstFulfilled(of: futures)) { "\($0)" })
                    watched.record(
                        Watched("fulfillingWhen(a, b, c)", Future.fulfillingWhen(a, b, c)) { "\([$0.0, $0.1, $0.2])" }
                    )
                    watched.record(
                        Watched("allResolved(a, b, c)", Future.allResolved(a, b, c)) {
                            "\([summarize($0.0), summarize($0.1), summarize($0.2)])"
                        }
                    )
                }
            }
            let picked = [0, inputCount / 2, inputCount - 1].map { resolutions[$0] }
            #expect(watched.events.count == makers * combinatorsPerMaker * 6)
            for entry in watched.events {
                let inputs = entry.name.hasSuffix("(a, b, c)") ? picked : resolutions
                let expected = allowed(entry.name, inputs)
                let outcome = entry.outcome()
                #expect(expected.contains(outcome), "round \(round): \(entry.name) ended \(outcome)")
                let times = entry.resolutions.value
                #expect(times == 1, "round \(round): \(entry.name) resolved \(times) times")
            }
        }
    }

    @Test("one combinator over many inputs resolved on many threads gathers every value in input order")
    func manyInputsOneCombinator() {
        let rounds = scaled(200)
        let inputCount = 64
        let resolvers = 4
        for round in 0..<rounds {
            let promises = (0..<inputCount).map { _ in Promise<Int>() }
            let joined = Future.fulfillingWhen(promises.map(\.future))
            let settled = Future.allResolved(promises.map(\.future))
            let resolutions = Counter()
            joined.whenResolved { _ in resolutions.increment() }
            settled.whenResolved { _ in resolutions.increment() }
            onThreads(resolvers) { thread in
                for index in stride(from: thread, to: inputCount, by: resolvers) {
                    promises[index].fulfil(with: round + index)
                }
            }
            let expected = (0..<inputCount).map { round + $0 }
            #expect(joined.peek()?.value == expected)
            #expect(settled.peek()?.value?.compactMap(\.value) == expected)
            #expect(resolutions.value == 2)
        }
    }
}
