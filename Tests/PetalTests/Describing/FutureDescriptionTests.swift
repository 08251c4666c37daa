import Petal
import Testing

enum DescribedTag {}

@Suite("Describing: a future says what it is")
struct FutureDescriptionTests {
    @Test("print shows the future's type and state, with its value or error", arguments: DescribedState.allCases)
    func printShowsState(_ state: DescribedState) {
        let promise = state.promise()
        #expect(printed(promise.future) == "Future<Int>(\(state.text))")
        #expect("\(promise.future)" == "Future<Int>(\(state.text))")
    }

    @Test(
        "debugDescription qualifies the types and shows values as debugPrint does", arguments: DescribedState.allCases)
    func debugDescriptionShowsState(_ state: DescribedState) {
        let promise = state.promise()
        #expect(promise.future.debugDescription == "Petal.Future<Swift.Int>(\(state.debugText))")
        #expect(String(reflecting: promise.future) == "Petal.Future<Swift.Int>(\(state.debugText))")
    }

    @Test("dump shows the state, then the value, the error or the indirect error", arguments: DescribedState.allCases)
    func dumpShowsState(_ state: DescribedState) {
        let promise = state.promise()
        let children = state.dumpLines()
        let header = "▿ " + "Petal.Future<Swift.Int>(\(state.debugText))"
        #expect(dumped(promise.future) == [header] + children)
    }

    @Test(
        "a future created resolved says the same as one resolved through its promise",
        arguments: DescribedState.resolved)
    func createdResolved(_ state: DescribedState) throws {
        let future = Future(resolvedWith: try #require(state.outcome))
        #expect("\(future)" == "Future<Int>(\(state.text))")
        #expect(future.debugDescription == "Petal.Future<Swift.Int>(\(state.debugText))")
    }

    @Test("a description is a snapshot: the one taken before the resolution stays pending, the next one sees it")
    func snapshot() {
        let promise = Promise<Int>()
        let before = "\(promise.future)"
        promise.fulfil(with: 1)
        #expect(before == "Future<Int>(pending)")
        #expect("\(promise.future)" == "Future<Int>(fulfilled: 1)")
    }

    @Test("a string value is shown plain in print and quoted in debugDescription")
    func stringValue() {
        let future = Future<String>.fulfilled(with: "hi")
        #expect("\(future)" == "Future<String>(fulfilled: hi)")
        #expect(future.debugDescription == "Petal.Future<Swift.String>(fulfilled: \"hi\")")
        #expect(
            dumped(future) == [
                "▿ Petal.Future<Swift.String>(fulfilled: \"hi\")", "  - state: \"fulfilled\"", "  - value: \"hi\"",
            ])
    }

    @Test("a future in a collection or an optional is described by its state")
    func nested() {
        let futures: [Future<Int>] = [.fulfilled(with: 1), .cancelled()]
        #expect("\(futures)" == "[Petal.Future<Swift.Int>(fulfilled: 1), Petal.Future<Swift.Int>(cancelled)]")
        let maybe: Future<Int>? = .fulfilled(with: 2)
        #expect("\(maybe as Any)" == "Optional(Petal.Future<Swift.Int>(fulfilled: 2))")
    }

    @Test("describing a failure is not observing it: the failure is still reported when the future is freed")
    func describingIsNotObserving() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        func rejectAndDescribe() {
            let promise = Promise<Probe<DescribedTag>>(line: line)
            promise.reject(with: TestError(5))
            #expect("\(promise.future)".hasSuffix("(rejected: TestError(code: 5))"))
            #expect(promise.future.debugDescription.hasSuffix("(rejected: PetalTests.TestError(code: 5))"))
            #expect(dumped(promise.future).count == 4)
            #expect("\(promise)".hasSuffix("(rejected: TestError(code: 5))"))
            #expect(dumped(promise).count == 5)
        }
        rejectAndDescribe()
        #expect(unobservedFailures(of: Probe<DescribedTag>.self, atLine: line).count == 1)
    }
}
