import Petal
import Testing

@Suite("Describing: a completion says which input and how it resolved")
struct FutureCompletionDescriptionTests {
    @Test("print shows the input's index and its outcome", arguments: DescribedState.resolved)
    func printShowsIndexAndOutcome(_ state: DescribedState) throws {
        let completion = FutureCompletion(index: 2, outcome: try #require(state.outcome))
        #expect(printed(completion) == "FutureCompletion<Int>(index: 2, \(state.text))")
    }

    @Test(
        "debugDescription qualifies the types and shows values as debugPrint does", arguments: DescribedState.resolved)
    func debugDescriptionShowsIndexAndOutcome(_ state: DescribedState) throws {
        let completion = FutureCompletion(index: 2, outcome: try #require(state.outcome))
        #expect(completion.debugDescription == "Petal.FutureCompletion<Swift.Int>(index: 2, \(state.debugText))")
        #expect(String(reflecting: completion) == completion.debugDescription)
    }

    @Test(
        "dump shows the index, then the outcome with its state and value or error", arguments: DescribedState.resolved)
    func dumpShowsIndexAndOutcome(_ state: DescribedState) throws {
        let completion = FutureCompletion(index: 2, outcome: try #require(state.outcome))
        #expect(
            dumped(completion)
                == [
                    "▿ Petal.FutureCompletion<Swift.Int>(index: 2, \(state.debugText))", "  - index: 2",
                    "  ▿ outcome: Petal.Outcome<Swift.Int>(\(state.debugText))",
                ] + state.dumpLines(indent: "    "))
    }

    @Test("the completions of futures describe themselves in the order the inputs resolved")
    func fromCompletions() async {
        let promises = [Promise<Int>(), Promise<Int>()]
        promises[1].reject(with: TestError(1))
        promises[0].fulfil(with: 10)
        var seen: [String] = []
        for await completion in Future.completions(of: promises.map(\.future)) { seen.append("\(completion)") }
        #expect(
            seen == [
                "FutureCompletion<Int>(index: 0, fulfilled: 10)",
                "FutureCompletion<Int>(index: 1, rejected: TestError(code: 1))",
            ])
    }
}
