import Petal
import Testing

@Suite("Describing: a promise says what state its future is in")
struct PromiseDescriptionTests {
    @Test("print shows the promise's type and its future's state", arguments: DescribedState.allCases)
    func printShowsFutureState(_ state: DescribedState) {
        let promise = state.promise()
        #expect(printed(promise) == "Promise<Int>(\(state.text))")
        #expect("\(promise)" == "Future<Int>(\(state.text))".replacingOccurrences(of: "Future", with: "Promise"))
    }

    @Test(
        "debugDescription adds the qualified types and the promise's creation site", arguments: DescribedState.allCases)
    func debugDescriptionShowsSite(_ state: DescribedState) {
        let line: UInt = #line + 1
        let promise = state.promise()
        #expect(
            promise.debugDescription == "Petal.Promise<Swift.Int>(\(state.debugText); created at \(#fileID):\(line))")
        #expect(String(reflecting: promise) == promise.debugDescription)
    }

    @Test(
        "dump shows the future's state, its value or error, and where the promise was created",
        arguments: DescribedState.allCases)
    func dumpShowsStateAndSite(_ state: DescribedState) {
        let line: UInt = #line + 1
        let promise = state.promise()
        let site = "\(#fileID):\(line)"
        #expect(
            dumped(promise)
                == ["▿ Petal.Promise<Swift.Int>(\(state.debugText); created at \(site)) #0"] + state.dumpLines()
                + ["  - createdAt: \"\(site)\""])
    }

    @Test("a promise's description follows its future as it resolves")
    func followsResolution() {
        let promise = Promise<String>()
        #expect("\(promise)" == "Promise<String>(pending)")
        promise.fulfil(with: "done")
        #expect("\(promise)" == "Promise<String>(fulfilled: done)")
        #expect("\(promise.future)" == "Future<String>(fulfilled: done)")
    }
}
