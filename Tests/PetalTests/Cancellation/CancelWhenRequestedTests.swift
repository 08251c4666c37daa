import Petal
import Synchronization
import Testing

/// A reply whose abandonment the recording handler keeps.
private struct Reply: DiagnosticProbe, Sendable {}

/// Holds a promise as a request's completion handler would, until told to let go.
private final class PromiseHolder: @unchecked Sendable {
    // @unchecked: touched by one thread at a time in the test that uses it.
    var promise: Promise<Reply>?
}

@Suite("Cancellation: cancelWhenRequested")
struct CancelWhenRequestedTests {
    @Test("a request cancels the future first, then stops the work, once")
    func cancelsThenStops() {
        let promise = Promise<Int>()
        let order = Recorder<String>()
        promise.future.whenCancelled { _ in order.record("cancelled") }
        promise.cancelWhenRequested { order.record("stopped") }
        promise.future.requestCancellation()
        promise.future.requestCancellation()
        #expect(order.events == ["cancelled", "stopped"])
        #expect(describe(promise.future.peek()) == "cancelled(nil)")
    }

    @Test("a stop that releases the last reference to the promise does not have it abandoned")
    func stopReleasesThePromise() {
        let holder = PromiseHolder()
        var future: Future<Reply>?
        do {
            let promise = Promise<Reply>()
            holder.promise = promise  // as a request's completion handler would hold it
            promise.cancelWhenRequested { holder.promise = nil }
            future = promise.future
        }
        future?.requestCancellation()
        #expect(holder.promise == nil)
        #expect(describe(future?.peek()) == "cancelled(nil)")
        // Reported abandonments name their creation site: none is this file's.
        #expect(!probeDiagnostics.events.contains { "\($0)".contains("CancelWhenRequestedTests.swift") })
    }

    @Test("a future resolved first never stops the work, and releases it")
    func resolvedFirst() {
        let promise = Promise<Int>()
        let stopped = Counter()
        let tracked = Tracked()
        promise.cancelWhenRequested { withExtendedLifetime(tracked) { stopped.increment() } }
        promise.fulfil(with: 1)
        promise.future.requestCancellation()
        #expect(stopped.value == 0)
        #expect(describe(promise.future.peek()) == "fulfilled(1)")
    }

    @Test("a chained consumer's request travels up, cancels the promise's future and stops the work")
    func throughAChain() {
        let promise = Promise<Int>()
        let stopped = Counter()
        promise.cancelWhenRequested { stopped.increment() }
        let chained = promise.future.then { $0 + 1 }
        chained.requestCancellation()
        #expect(stopped.value == 1)
        #expect(describe(promise.future.peek()) == "cancelled(nil)")
    }

    @Test("8 threads asking at once, 1,000 rounds: the work is stopped exactly once per round")
    func racingRequests() {
        for _ in 0..<1_000 {
            let promise = Promise<Int>()
            let stopped = Counter()
            promise.cancelWhenRequested { stopped.increment() }
            let future = promise.future
            onThreads(8) { _ in future.requestCancellation() }
            #expect(stopped.value == 1)
            #expect(describe(future.peek()) == "cancelled(nil)")
        }
    }

    /// A stop registered while another thread gives the future its cancellation record (a
    /// handler of its own) either becomes the new record's first action or, when the other
    /// record was installed first, is taken back from its own unpublished record and added to
    /// the installed one as a node: either way it runs once on a request, and what it captures
    /// is freed once the future has resolved.
    @Test("a stop and a handler registered at once, 2,000 rounds: each runs once on a request, captures freed")
    func stopRacingAnotherRecord() {
        for _ in 0..<2_000 {
            let promise = Promise<Int>()
            let stopped = Counter()
            let handled = Counter()
            let future = promise.future
            weak var captured: Tracked?
            do {
                // Handed over, not captured: the threads' closure outlives the round.
                let handOver = Mutex<Tracked?>(Tracked(1))
                captured = handOver.withLock { $0 }
                onThreads(2) { thread in
                    if thread == 0 {
                        let call = handOver.withLock { $0.take() }.unsafelyUnwrapped
                        promise.cancelWhenRequested { if call.id == 1 { stopped.increment() } }
                    } else {
                        promise.whenCancellationRequested { handled.increment() }
                    }
                }
            }
            #expect(captured != nil)
            future.requestCancellation()
            #expect(stopped.value == 1)
            #expect(handled.value == 1)
            #expect(describe(future.peek()) == "cancelled(nil)")
            #expect(captured == nil)
        }
    }
}
