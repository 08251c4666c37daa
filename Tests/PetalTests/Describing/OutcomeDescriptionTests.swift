import Petal
import Testing

@Suite("Describing: an outcome says what it is")
struct OutcomeDescriptionTests {
    @Test("print shows the outcome's type, state and value or error", arguments: DescribedState.resolved)
    func printShowsState(_ state: DescribedState) throws {
        let outcome = try #require(state.outcome)
        #expect(printed(outcome) == "Outcome<Int>(\(state.text))")
    }

    @Test(
        "debugDescription qualifies the types and shows values as debugPrint does", arguments: DescribedState.resolved)
    func debugDescriptionShowsState(_ state: DescribedState) throws {
        let outcome = try #require(state.outcome)
        #expect(outcome.debugDescription == "Petal.Outcome<Swift.Int>(\(state.debugText))")
        #expect(String(reflecting: outcome) == outcome.debugDescription)
    }

    @Test("dump shows the state, then the value, the error or the indirect error", arguments: DescribedState.resolved)
    func dumpShowsState(_ state: DescribedState) throws {
        let outcome = try #require(state.outcome)
        let children = state.dumpLines()
        let header = "▿ " + "Petal.Outcome<Swift.Int>(\(state.debugText))"
        #expect(dumped(outcome) == [header] + children)
    }

    @Test("an outcome says what the future it came from says")
    func matchesItsFuture() throws {
        let future = Future<[Int]>.fulfilled(with: [1, 2])
        let outcome = try #require(future.peek())
        #expect("\(outcome)" == "Outcome<Array<Int>>(fulfilled: [1, 2])")
        #expect("\(future)" == "Future<Array<Int>>(fulfilled: [1, 2])")
    }
}
