import Petal
import Testing

@Suite("Chaining: stack safety")
struct ChainStackSafetyTests {
    /// A million, fewer in the sanitizers' slowest build (`deepChainLinks`).
    static let links = deepChainLinks

    @Test("a million then steps built on a pending future complete inline when the head is fulfilled")
    func millionThenSteps() {
        let head = Promise<Int>()
        var tail = head.future
        for _ in 0..<Self.links { tail = tail.then { $0 + 1 } }
        #expect(!tail.isResolved)
        head.fulfil(with: 0)
        #expect(tail.peek()?.value == Self.links)
    }

    @Test("a rejection at the head of a million steps cancels the tail with it, running no step")
    func millionStepFailure() {
        let head = Promise<Int>()
        let ran = Counter()
        var tail = head.future
        for _ in 0..<Self.links {
            tail = tail.then { value in
                ran.increment()
                return value
            }
        }
        head.reject(with: TestError(3))
        #expect(describe(tail.peek()) == "cancelled(\(TestError(3)))")
        #expect(ran.value == 0)
    }

    @Test("a million nested future-returning steps (a recursive loop) complete")
    func millionNestedFutures() {
        @Sendable func countdown(_ remaining: Int) -> Future<Int> {
            guard remaining > 0 else { return .fulfilled(with: 0) }
            return Future.fulfilled(with: remaining - 1).then { countdown($0) }.then { $0 + 1 }
        }
        #expect(countdown(Self.links).peek()?.value == Self.links)
    }

    @Test("a million promises each resolved from the previous future complete")
    func millionMirrors() {
        let head = Promise<Int>()
        var tail = head.future
        for _ in 0..<Self.links {
            let next = Promise<Int>()
            next.resolve(from: tail)
            tail = next.future
        }
        head.fulfil(with: 5)
        #expect(tail.peek()?.value == 5)
    }

    @Test("a recovery at the end of a million steps sees the head's rejection")
    func millionStepsThenRecover() {
        let head = Promise<Int>()
        var tail = head.future
        for _ in 0..<Self.links { tail = tail.then { $0 }.always {} }
        let recovered = tail.recover { error in (error as? TestError)?.code }
        head.reject(with: TestError(4))
        #expect(recovered.peek()?.value == 4)
    }
}
