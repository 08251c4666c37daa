import Petal
import Testing

@Suite("Abandoned promises")
struct AbandonedPromiseTests {
    @Test("a promise dropped unresolved cancels its future with an error that names its type and creation site")
    func droppedPromiseCancels() throws {
        let line: UInt = #line
        var promise: Promise<Int>? = Promise<Int>(line: line)
        let future = try #require(promise?.future)
        promise = nil
        let outcome = try #require(future.peek())
        guard case .cancelled(let indirectError?) = outcome else {
            Issue.record("expected a cancellation with an indirect error, got \(outcome)")
            return
        }
        let abandoned = try #require(indirectError as? AbandonedPromiseError)
        #expect(ObjectIdentifier(abandoned.valueType) == ObjectIdentifier(Int.self))
        #expect("\(abandoned.fileID)".hasSuffix("AbandonedPromiseTests.swift"))
        #expect(abandoned.line == line)
        #expect(abandoned.promise.contains("Promise<Int>"))
        #expect(abandoned.description.contains("AbandonedPromiseTests.swift:\(line)"))
        #expect(abandoned.description.contains("dropped before it was resolved"))
    }

    @Test("callbacks waiting on an abandoned promise's future run with the error")
    func waitingCallbacksHearOfIt() {
        var promise: Promise<Int>? = Promise<Int>()
        let errors = Recorder<String>()
        promise?.future.whenAnyError { errors.record("\(type(of: $0))") }
        promise?.future.whenFulfilled { _ in Issue.record("an abandoned future was fulfilled") }
        #expect(errors.events.isEmpty)
        promise = nil
        #expect(errors.events == ["AbandonedPromiseError"])
    }

    @Test("a thread blocked waiting on the future is woken when the promise is dropped")
    func blockedWaiterIsWoken() {
        for _ in 0..<scaled(50) {
            var promise: Promise<Int>? = Promise<Int>()
            let future = promise!.future
            let outcomes = Recorder<Outcome<Int>>()
            let started = Barrier(parties: 2)
            let group = DispatchGroupBox()
            group.run {
                started.arriveAndWait()
                outcomes.record(future.wait())
            }
            started.arriveAndWait()
            promise = nil
            group.wait()
            #expect(outcomes.events.count == 1)
            #expect(outcomes.events.first?.error is AbandonedPromiseError)
        }
    }

    @Test("a resolved promise dropped leaves its future as it was")
    func droppedResolvedPromise() {
        var promise: Promise<Int>? = Promise<Int>()
        let future = promise!.future
        promise?.fulfil(with: 3)
        promise = nil
        #expect(future.peek()?.value == 3)
    }

    @Test("consumers holding the future do not keep an abandoned promise alive")
    func consumersDoNotHoldThePromise() {
        weak var weakPromise: Promise<Int>?
        var futures: [Future<Int>] = []
        do {
            let promise = Promise<Int>()
            weakPromise = promise
            futures = Array(repeating: promise.future, count: 3)
        }
        #expect(weakPromise == nil)
        #expect(futures.allSatisfy { $0.peek()?.isCancelled == true })
    }
}
