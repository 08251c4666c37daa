import Petal
import Synchronization
import Testing

@Suite("PromiseBatch: one stop for the whole batch")
struct PromiseBatchStopTests {
    @Test(
        "a request on all runs the batch's stop once, after the slots' own stops; later answers resolve their slots, unreported"
    )
    func requestRunsTheBatchStop() {
        _ = repeatedResolutions
        let line: UInt = #line
        let batch = PromiseBatch<Int>(count: 3, line: line)
        let stops = Recorder<String>()
        batch.cancelWhenRequested(1) { stops.record("slot 1") }
        batch.cancelWhenRequested { stops.record("batch") }
        #expect(batch.fulfil(0, with: 1))
        #expect(stops.events.isEmpty)
        batch.all.requestCancellation()
        #expect(describe(batch.all.peek()) == "cancelled(nil)")
        #expect(stops.events == ["slot 1", "batch"])
        #expect(batch.fulfil(2, with: 3))  // no stop of its own: resolved, into nothing
        #expect(!batch.fulfil(1, with: 2))  // stopped by its own stop
        batch.all.requestCancellation()
        #expect(stops.events == ["slot 1", "batch"])
        #expect(repeatCount(atLine: line) == 0)
    }

    @Test(
        "a slot's failure runs the batch's stop; a batch whose slots are all fulfilled never runs it, and lets it go when freed"
    )
    func failureRunsItFulfilmentDoesNot() {
        let failing = PromiseBatch<Int>(count: 2)
        let stops = Counter()
        failing.cancelWhenRequested { stops.increment() }
        #expect(failing.reject(0, with: TestError(1)))
        #expect(describe(failing.all.peek()) == "cancelled(TestError(code: 1))")
        #expect(stops.value == 1)

        let released = Counter()
        do {
            let fulfilled = PromiseBatch<Int>(count: 2)
            let token = ReleaseCounter(released)
            fulfilled.cancelWhenRequested {
                token.touch()
                stops.increment()
            }
            #expect(fulfilled.fulfil(0, with: 1) && fulfilled.fulfil(1, with: 2))
            #expect(describe(fulfilled.all.peek()) == "fulfilled([1, 2])")
            fulfilled.all.requestCancellation()
            #expect(released.value == 0)
        }
        #expect(stops.value == 1)
        #expect(released.value == 1)
    }

    @Test("registered once all was given up on, it runs at once; with no slots, all is fulfilled and it never runs")
    func registeredLate() {
        let batch = PromiseBatch<Int>(count: 2)
        batch.all.requestCancellation()
        let stops = Counter()
        batch.cancelWhenRequested { stops.increment() }
        #expect(stops.value == 1)

        let empty = PromiseBatch<Int>(count: 0)
        empty.cancelWhenRequested { stops.increment() }
        empty.all.requestCancellation()
        #expect(stops.value == 1)
    }

    @Test("a batch holds one stop: a second is reported and never runs, before the first ran or after")
    func secondBatchStopIsRefused() {
        let start = adjustedArguments.events.count
        let batch = PromiseBatch<Int>(count: 2)
        let stops = Recorder<Int>()
        batch.cancelWhenRequested { stops.record(1) }
        batch.cancelWhenRequested { stops.record(2) }
        #expect(
            adjustmentReported(
                "PromiseBatch.cancelWhenRequested(stopping:)", given: "a second stop for the batch", since: start))
        batch.all.requestCancellation()
        #expect(stops.events == [1])
        let afterwards = adjustedArguments.events.count
        batch.cancelWhenRequested { stops.record(3) }
        #expect(
            adjustmentReported(
                "PromiseBatch.cancelWhenRequested(stopping:)", given: "a second stop for the batch", since: afterwards))
        #expect(stops.events == [1])
        #expect(!batch.isResolved(1))  // the batch's stop stops no slot
    }

    @Test(
        "the batch's stop registered racing a request and the fulfils on three threads: run exactly once when all was given up on, never when it was fulfilled, released exactly once"
    )
    func registrationRacingRequest() {
        let released = Counter()
        for round in 0..<scaled(2_000) {
            let runs = Counter()
            let fulfilled: Bool
            do {
                let batch = PromiseBatch<Int>(count: 8)
                onThreads(3) { thread in
                    switch thread {
                    case 0:
                        let token = ReleaseCounter(released)
                        batch.cancelWhenRequested {
                            token.touch()
                            runs.increment()
                        }
                    case 1:
                        for slot in 0..<8 { _ = batch.fulfil((slot + round) % 8, with: slot) }
                    default:
                        batch.all.requestCancellation()
                    }
                }
                fulfilled = describe(batch.all.peek()).hasPrefix("fulfilled")
                #expect(runs.value == (fulfilled ? 0 : 1))
            }
            #expect(released.value == round + 1)
        }
    }
}
