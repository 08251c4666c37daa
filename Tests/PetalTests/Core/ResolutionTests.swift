import Petal
import Testing

@Suite("Resolving a promise")
struct ResolutionTests {
    @Test("a new promise's future is pending")
    func pending() {
        let promise = Promise<Int>()
        #expect(!promise.isResolved)
        #expect(!promise.future.isResolved)
        #expect(promise.future.peek() == nil)
        // Held to here: released after its last use, the promise would be abandoned mid-check.
        withExtendedLifetime(promise) {}
    }

    @Test("fulfil resolves the future with the value")
    func fulfil() {
        let promise = Promise<Int>()
        #expect(promise.fulfil(with: 42))
        #expect(promise.isResolved)
        #expect(promise.future.peek()?.value == 42)
    }

    @Test("reject resolves the future with the error")
    func reject() throws {
        let promise = Promise<Int>()
        #expect(promise.reject(with: TestError(1)))
        let outcome = try #require(promise.future.peek())
        #expect(outcome.isRejected)
        #expect(outcome.error as? TestError == TestError(1))
        #expect(throws: TestError(1)) { try outcome.get() }
    }

    @Test("cancel resolves the future, with or without an indirect error")
    func cancel() throws {
        let plain = Promise<Int>()
        #expect(plain.cancel())
        let plainOutcome = try #require(plain.future.peek())
        #expect(plainOutcome.isCancelled)
        #expect(plainOutcome.error == nil)

        let indirect = Promise<Int>()
        #expect(indirect.cancel(withIndirectError: TestError(2)))
        let indirectOutcome = try #require(indirect.future.peek())
        guard case .cancelled(let error) = indirectOutcome else {
            Issue.record("expected a cancellation, got \(indirectOutcome)")
            return
        }
        #expect(error as? TestError == TestError(2))
        let thrown = #expect(throws: FutureCancelledError.self) { try indirectOutcome.get() }
        #expect(thrown?.indirectError as? TestError == TestError(2))
    }

    @Test("resolve(with:) accepts every outcome", arguments: [0, 1, 2, 3])
    func resolveWithOutcome(kind: Int) throws {
        let outcome: Outcome<String> =
            switch kind {
            case 0: .fulfilled("done")
            case 1: .rejected(TestError(kind))
            case 2: .cancelled(indirectError: nil)
            default: .cancelled(indirectError: TestError(kind))
            }
        let promise = Promise<String>()
        #expect(promise.resolve(with: outcome))
        let resolved = try #require(promise.future.peek())
        #expect(resolved.value == outcome.value)
        #expect(resolved.isRejected == outcome.isRejected)
        #expect(resolved.isCancelled == outcome.isCancelled)
        #expect((resolved.error as? TestError) == (outcome.error as? TestError))
    }

    @Test("futures and promises can be created already resolved")
    func resolvedConstructors() {
        #expect(Future<Int>.fulfilled(with: 1).peek()?.value == 1)
        #expect(Future<Int>.rejected(with: TestError(3)).peek()?.error as? TestError == TestError(3))
        #expect(Future<Int>.cancelled().peek()?.isCancelled == true)
        #expect(Future<Int>.cancelled(withIndirectError: TestError(4)).peek()?.error as? TestError == TestError(4))
        #expect(Future(resolvedWith: Outcome<Int>.fulfilled(5)).peek()?.value == 5)
        #expect(Promise<Int>(resolvedWith: .fulfilled(6)).future.peek()?.value == 6)
        #expect(Promise<Int>(resolvedWith: .rejected(TestError(7))).future.peek()?.isRejected == true)
        #expect(Promise<Int>(resolvedWith: .cancelled(indirectError: TestError(8))).future.peek()?.isCancelled == true)
        #expect(Promise<Int>(resolvedWith: .fulfilled(9)).isResolved)
    }

    @Test("a second fulfil is ignored and reported")
    func secondFulfil() throws {
        _ = repeatedResolutions
        let line: UInt = #line
        let promise = Promise<Int>(line: line)
        #expect(promise.fulfil(with: 1))
        #expect(!promise.fulfil(with: 2))
        #expect(promise.future.peek()?.value == 1)
        let report = try #require(reports(forLine: line).first)
        #expect(report.attempt == .fulfil)
        #expect(report.promise.contains("Promise<Int>"))
        #expect(report.description.contains("ResolutionTests.swift:\(line)"))
    }

    @Test("every kind of later resolution is ignored and reported")
    func laterResolutionsOfEveryKind() {
        _ = repeatedResolutions
        let line: UInt = #line
        let promise = Promise<Int>(line: line)
        #expect(promise.reject(with: TestError(1)))
        #expect(!promise.fulfil(with: 1))
        #expect(!promise.reject(with: TestError(2)))
        #expect(!promise.cancel(withIndirectError: TestError(3)))
        #expect(!promise.resolve(with: .fulfilled(4)))
        #expect(promise.future.peek()?.error as? TestError == TestError(1))
        #expect(reports(forLine: line).map(\.attempt) == [.fulfil, .reject, .cancel, .fulfil])
    }

    @Test("an answer that loses to the cancellation a request caused is ignored, not reported")
    func answerRacingARequestIsNotARepeat() {
        _ = repeatedResolutions
        let line: UInt = #line
        let promise = Promise<Int>(line: line)
        let stops = Recorder<Int>()
        promise.cancelWhenRequested { stops.record(1) }
        promise.future.requestCancellation()  // the consumer gives up: cancelled, then stopped
        #expect(!promise.fulfil(with: 7))  // the reply was already on its way
        #expect(!promise.reject(with: TestError(1)))
        #expect(describe(promise.future.peek()) == "cancelled(nil)")
        #expect(stops.events == [1])
        #expect(reports(forLine: line).isEmpty && repeatCount(atLine: line) == 0)

        // A cancellation no request caused is the producer's own: a later answer is a repeat.
        let ownLine: UInt = #line
        let own = Promise<Int>(line: ownLine)
        own.cancelWhenRequested {}
        #expect(own.cancel())
        #expect(!own.fulfil(with: 7))
        #expect(reports(forLine: ownLine).map(\.attempt) == [.fulfil])
    }

    @Test("an already resolved promise reports a resolution attempt too")
    func resolvedConstructorRejectsResolution() {
        _ = repeatedResolutions
        let line: UInt = #line
        let promise = Promise<Int>(resolvedWith: .fulfilled(1), line: line)
        #expect(!promise.cancel())
        #expect(promise.future.peek()?.value == 1)
        #expect(reports(forLine: line).map(\.attempt) == [.cancel])
    }

    @Test("racing resolvers: exactly one wins, every round")
    func racingResolvers() {
        _ = repeatedResolutions
        let rounds = scaled(300)
        let threads = 4
        for _ in 0..<rounds {
            let promise = Promise<Int>()
            let winners = Recorder<Int>()
            onThreads(threads) { index in
                let won: Bool =
                    switch index % 3 {
                    case 0: promise.fulfil(with: index)
                    case 1: promise.reject(with: TestError(index))
                    default: promise.cancel(withIndirectError: TestError(index))
                    }
                if won { winners.record(index) }
            }
            let won = winners.events
            #expect(won.count == 1)
            guard let winner = won.first, let outcome = promise.future.peek() else {
                Issue.record("no winner, or the future is unresolved")
                continue
            }
            switch winner % 3 {
            case 0: #expect(outcome.value == winner)
            case 1: #expect(outcome.isRejected && (outcome.error as? TestError)?.code == winner)
            default: #expect(outcome.isCancelled && (outcome.error as? TestError)?.code == winner)
            }
        }
    }
}
