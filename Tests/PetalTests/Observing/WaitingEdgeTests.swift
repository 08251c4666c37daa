import CPetal
import Dispatch
import Testing

@testable import Petal

/// Waits where a naive implementation hangs or misreads its timeout: from deep inside nested
/// inline callbacks, from deferred work with more work queued, and with timeouts of zero or of
/// centuries.
@Suite("Waiting: edge cases")
struct WaitingEdgeTests {
    /// Enters `depth` inline frames (as nested callbacks would), runs `body`, and leaves them.
    private func atTrampolineDepth(_ depth: Int, _ body: () -> Void) {
        var entered = 0
        while entered < depth, petal_trampoline_enter() != 0 { entered += 1 }
        body()
        for _ in 0..<entered { petal_trampoline_leave() }
    }

    @Test(
        "a callback at any nesting depth that fulfils a promise and waits on a step of it gets the result",
        arguments: 0...(Int(PETAL_TRAMPOLINE_DEPTH) + 2)
    )
    func waitInsideNestedCallbacks(depth: Int) {
        atTrampolineDepth(depth) {
            let promise = Promise<Int>()
            let next = promise.future.then { $0 + 1 }
            promise.fulfil(with: depth)
            // The timeout only turns a regression into a failure instead of a hang.
            #expect(next.wait(timeout: .seconds(60))?.value == depth + 1)
            #expect(next.wait().value == depth + 1)
        }
        #expect(petal_trampoline_depth() == 0)
    }

    @Test("deferred work that waits while later deferred work is queued runs that work first, in order")
    func waitFromDeferredWork() {
        let events = Recorder<String>()
        atTrampolineDepth(Int(PETAL_TRAMPOLINE_DEPTH)) {
            // Both are deferred to the outermost frame: the thread is at the limit.
            InlineExecutionContext.inline.execute {
                let promise = Promise<Int>()
                let doubled = promise.future.then { $0 * 2 }
                // Queued behind the second item, so its delivery is deferred too.
                promise.fulfil(with: 21)
                events.record("first waits")
                events.record("first got \(doubled.wait(timeout: .seconds(60))?.value ?? -1)")
            }
            InlineExecutionContext.inline.execute { events.record("second ran") }
            #expect(events.events.isEmpty)
        }
        #expect(events.events == ["first waits", "second ran", "first got 42"])
    }

    @Test("a timed wait of zero or less only looks: it subscribes nothing")
    func zeroTimeoutLeavesNothing() {
        let promise = Promise<Int>()
        for timeout: Duration in [.zero, .nanoseconds(-1), .seconds(-5), .seconds(Int64.min)] {
            #expect(promise.future.wait(timeout: timeout) == nil)
        }
        #expect(!promise.future.storage.hasWaiters)
        promise.fulfil(with: 2)
        #expect(promise.future.wait(timeout: .zero)?.value == 2)
    }

    @Test("timeouts near or past Int64.max seconds wait for the outcome instead of wrapping or trapping")
    func hugeTimeouts() {
        let timeouts: [Duration] = [
            .seconds(Int64.max), .seconds(Int64.max) + .nanoseconds(999_999_999),
            .seconds(Int64.max / 1_000_000_000), .seconds(Int64.max / 1_000_000_000 + 1),
            .seconds(1 << 40), .nanoseconds(Int64.max), .seconds(Int64.max) + .seconds(Int64.max),
        ]
        for (index, timeout) in timeouts.enumerated() {
            let promise = Promise<Int>()
            let group = DispatchGroupBox()
            group.run { promise.fulfil(with: index) }
            // A deadline that wrapped into the past would return nil before the fulfil.
            #expect(promise.future.wait(timeout: timeout)?.value == index)
            group.wait()
        }
    }

    @Test("timed-out waits leave nothing in the future, however many there are")
    func timedOutWaitsLeaveNothing() {
        let promise = Promise<Int>()
        for _ in 0..<1000 { #expect(promise.future.wait(timeout: .nanoseconds(1)) == nil) }
        // Nothing subscribed: only the mark that someone may sleep, for the resolver to clear.
        #expect(!promise.future.storage.hasWaiters)
        #expect(petal_word_has_parked(petal_cell_load(promise.future.storage.cell)) != 0)
        promise.fulfil(with: 5)
        #expect(petal_word_has_parked(petal_cell_load(promise.future.storage.cell)) == 0)
        #expect(promise.future.wait(timeout: .nanoseconds(1))?.value == 5)
    }

    @Test("sleepers on many futures wake for their own, with exact outcomes, in every round")
    func sleepersOfManyFutures() {
        for round in 0..<scaled(100) {
            let promises = (0..<4).map { _ in Promise<Int>() }
            let results = Recorder<(Int, Int?)>()
            let sleepers = DispatchGroupBox()
            for (index, promise) in promises.enumerated() {
                for timed in [false, true] {
                    sleepers.run {
                        let outcome = timed ? promise.future.wait(timeout: .seconds(600)) : promise.future.wait()
                        results.record((index, outcome?.value))
                    }
                }
            }
            for offset in 0..<promises.count {
                let index = (offset + round) % promises.count
                promises[index].fulfil(with: index * 10)
            }
            sleepers.wait()
            let sorted = results.events.sorted { $0.0 < $1.0 }
            #expect(sorted.map(\.0) == [0, 0, 1, 1, 2, 2, 3, 3])
            #expect(sorted.allSatisfy { $0.1 == $0.0 * 10 })
        }
    }
}
