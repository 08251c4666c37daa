import Petal
import Testing

/// What each observer kind saw, as comparable strings.
private func observeAll(_ future: Future<Int>, into recorder: Recorder<String>) {
    future.whenResolved { outcome in
        recorder.record("resolved:\(describe(outcome))")
    }
    future.whenFulfilled { value in recorder.record("fulfilled:\(value)") }
    future.whenRejected { error in recorder.record("rejected:\(code(error))") }
    future.whenCancelled { error in recorder.record("cancelled:\(error.map(code) ?? "nil")") }
    future.whenAnyError { error in recorder.record("anyError:\(code(error))") }
}

private func code(_ error: any Error) -> String {
    (error as? TestError).map { String($0.code) } ?? "\(error)"
}

private func describe(_ outcome: Outcome<Int>) -> String {
    switch outcome {
    case .fulfilled(let value): "fulfilled(\(value))"
    case .rejected(let error): "rejected(\(code(error)))"
    case .cancelled(let error): "cancelled(\(error.map(code) ?? "nil"))"
    }
}

/// The outcomes every observer is tested against, with what each observer must report.
private let outcomeCases: [(Outcome<Int>, [String])] = [
    (.fulfilled(7), ["resolved:fulfilled(7)", "fulfilled:7"]),
    (.rejected(TestError(1)), ["resolved:rejected(1)", "rejected:1", "anyError:1"]),
    (.cancelled(indirectError: nil), ["resolved:cancelled(nil)", "cancelled:nil"]),
    (.cancelled(indirectError: TestError(2)), ["resolved:cancelled(2)", "cancelled:2", "anyError:2"]),
]

@Suite("Observing a future")
struct ObserverTests {
    @Test("each observer fires exactly for its outcomes, subscribed before the resolution", arguments: 0..<4)
    func observersBeforeResolution(index: Int) {
        let (outcome, expected) = outcomeCases[index]
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        observeAll(promise.future, into: seen)
        #expect(seen.events.isEmpty)
        promise.resolve(with: outcome)
        #expect(seen.events == expected)
    }

    @Test("each observer fires exactly for its outcomes, subscribed after the resolution", arguments: 0..<4)
    func observersAfterResolution(index: Int) {
        let (outcome, expected) = outcomeCases[index]
        let seen = Recorder<String>()
        observeAll(Future(resolvedWith: outcome), into: seen)
        #expect(seen.events == expected)
    }

    @Test("callbacks run in subscription order, before and after the resolution")
    func subscriptionOrder() {
        let promise = Promise<Int>()
        let order = Recorder<Int>()
        for index in 0..<50 {
            promise.future.whenFulfilled { _ in order.record(index) }
        }
        promise.fulfil(with: 0)
        #expect(order.events == Array(0..<50))
        for index in 50..<100 {
            promise.future.whenFulfilled { _ in order.record(index) }
        }
        #expect(order.events == Array(0..<100))
    }

    @Test("a callback subscribed from inside a callback runs after those already waiting")
    func subscribingFromInsideACallback() {
        let promise = Promise<Int>()
        let future = promise.future
        let order = Recorder<String>()
        future.whenFulfilled { _ in
            order.record("first")
            future.whenFulfilled { _ in order.record("nested") }
            order.record("first done")
        }
        future.whenFulfilled { _ in order.record("second") }
        future.whenFulfilled { _ in order.record("third") }
        promise.fulfil(with: 1)
        #expect(order.events == ["first", "first done", "second", "third", "nested"])
        // Once delivery has finished, a new callback runs at once, before subscribing returns.
        future.whenFulfilled { _ in order.record("late") }
        #expect(order.events.last == "late")
    }

    @Test("a callback may resolve another promise, whose callbacks run before it returns")
    func resolvingFromInsideACallback() {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let order = Recorder<String>()
        first.future.whenFulfilled { value in
            order.record("first \(value)")
            second.fulfil(with: value + 1)
            order.record("after second")
        }
        second.future.whenFulfilled { value in order.record("second \(value)") }
        first.fulfil(with: 1)
        #expect(order.events == ["first 1", "second 2", "after second"])
    }

    @Test("a callback that resolves its own promise again is ignored and reported")
    func resolvingAgainFromInsideACallback() {
        _ = repeatedResolutions
        let line: UInt = #line
        let promise = Promise<Int>(line: line)
        let again = Recorder<Bool>()
        promise.future.whenFulfilled { _ in again.record(promise.fulfil(with: 2)) }
        promise.fulfil(with: 1)
        #expect(again.events == [false])
        #expect(promise.future.peek()?.value == 1)
        #expect(reports(forLine: line).count == 1)
    }

    @Test("every observer kind runs exactly once, however many are mixed on one future")
    func mixedObserversRunOnce() {
        let promise = Promise<Int>()
        let counter = Counter()
        for _ in 0..<20 {
            promise.future.whenResolved { _ in counter.increment() }
            promise.future.whenFulfilled { _ in counter.increment() }
            promise.future.whenRejected { _ in Issue.record("a fulfilled future reported a rejection") }
            promise.future.whenCancelled { _ in Issue.record("a fulfilled future reported a cancellation") }
            promise.future.whenAnyError { _ in Issue.record("a fulfilled future reported an error") }
        }
        promise.fulfil(with: 3)
        promise.fulfil(with: 4)
        #expect(counter.value == 40)
    }
}
