import Petal
import Synchronization
import Testing

@Suite("PromiseBatch: a fan-out's promises in one object")
struct PromiseBatchTests {
    @Test("every slot fulfilled: all is fulfilled with the values in slot order, by the last fulfil")
    func fulfilsInSlotOrder() {
        let batch = PromiseBatch<String>(count: 3)
        #expect(batch.count == 3)
        #expect(batch.fulfil(2, with: "c"))
        #expect(batch.fulfil(0, with: "a"))
        #expect(describe(batch.all.peek()) == "pending")
        #expect(!batch.isResolved(1) && batch.isResolved(2))
        #expect(batch.fulfil(1, with: "b"))
        #expect(describe(batch.all.peek()) == #"fulfilled(["a", "b", "c"])"#)
    }

    @Test("no slots: all is fulfilled with an empty array at once")
    func emptyBatch() {
        #expect(describe(PromiseBatch<Int>(count: 0).all.peek()) == "fulfilled([])")
    }

    @Test(
        "hostile counts and indexes: a negative count is no slots, an index outside the batch resolves nothing; each reported"
    )
    func hostileCountsAndIndexes() {
        let start = adjustedArguments.events.count
        for count in [-3, Int.min] {
            #expect(describe(PromiseBatch<Int>(count: count).all.peek()) == "fulfilled([])")
        }
        #expect(adjustmentReported("PromiseBatch.count", given: "-3", since: start))
        #expect(adjustmentReported("PromiseBatch.count", given: "\(Int.min)", since: start))
        let batch = PromiseBatch<Int>(count: 2)
        let stops = Recorder<Int>()
        for index in [-1, 2, Int.max, Int.min] {
            #expect(!batch.fulfil(index, with: 1))
            #expect(!batch.reject(index, with: TestError(1)))
            #expect(!batch[index].cancel())
            #expect(!batch[index].resolve(with: .fulfilled(1)))
            #expect(!batch.isResolved(index))
            batch.cancelWhenRequested(index) { stops.record(index) }
            #expect(adjustmentReported("PromiseBatch index", given: "\(index)", since: start))
        }
        batch.all.requestCancellation()
        #expect(stops.events.isEmpty)
        #expect(describe(batch.all.peek()) == "cancelled(nil)")
    }

    @Test("a second resolution of a slot changes nothing, returns false and is reported at the batch's site")
    func repeatsAreReported() {
        _ = repeatedResolutions
        let line: UInt = #line
        let batch = PromiseBatch<Int>(count: 2, line: line)
        #expect(batch.fulfil(0, with: 1))
        #expect(!batch.fulfil(0, with: 2))
        #expect(!batch.reject(0, with: TestError(1)))
        #expect(!batch[0].cancel())
        #expect(batch.fulfil(1, with: 3))
        #expect(describe(batch.all.peek()) == "fulfilled([1, 3])")
        #expect(repeatCount(atLine: line) == 3)
        #expect(reports(forLine: line).first?.attempt == .fulfil)
    }

    @Test("a batch that ignores repeats reports none")
    func ignoredRepeats() {
        _ = repeatedResolutions
        let line: UInt = #line
        let batch = PromiseBatch<Int>(count: 1, onRepeatedResolution: .ignore, line: line)
        #expect(batch.fulfil(0, with: 1))
        #expect(!batch.fulfil(0, with: 2))
        #expect(reports(forLine: line).isEmpty && repeatCount(atLine: line) == 0)
    }

    @Test("a rejected slot cancels all with its error and stops each pending slot that registered a stop, once")
    func rejectionStopsTheRest() {
        _ = repeatedResolutions
        let line: UInt = #line
        let batch = PromiseBatch<Int>(count: 4, line: line)
        let stops = Recorder<Int>()
        for slot in 0..<3 { batch.cancelWhenRequested(slot) { stops.record(slot) } }
        #expect(batch.fulfil(0, with: 1))
        #expect(batch.reject(1, with: TestError(7)))
        #expect(describe(batch.all.peek()) == "cancelled(TestError(code: 7))")
        #expect(stops.events == [2])  // slot 0 was fulfilled, slot 1 failed, slot 3 has no stop
        #expect(!batch.fulfil(2, with: 5))  // stopped: on its way, not a repeat
        #expect(batch.fulfil(3, with: 6))  // no stop: its producer finishes, into nothing
        batch.cancelWhenRequested(3) { stops.record(3) }  // resolved: never runs
        #expect(stops.events == [2])
        #expect(repeatCount(atLine: line) == 0)
        batch.all.requestCancellation()  // decided: nothing more
        #expect(stops.events == [2])
    }

    @Test("a cancelled slot cancels all with its indirect error, or none")
    func cancellationDecides() {
        let named = PromiseBatch<Int>(count: 2)
        #expect(named.cancel(1, withIndirectError: TestError(3)))
        #expect(describe(named.all.peek()) == "cancelled(TestError(code: 3))")
        let plain = PromiseBatch<Int>(count: 2)
        #expect(plain[0].cancel())
        #expect(describe(plain.all.peek()) == "cancelled(nil)")
        #expect(plain.reject(1, with: TestError(4)))  // its own slot, pending: the first failure decided all
        #expect(describe(plain.all.peek()) == "cancelled(nil)")
    }

    @Test("resolve routes each outcome as its own method does")
    func resolveRoutes() {
        let fulfilled = PromiseBatch<Int>(count: 1)
        #expect(fulfilled[0].resolve(with: .fulfilled(9)))
        #expect(describe(fulfilled.all.peek()) == "fulfilled([9])")
        let rejected = PromiseBatch<Int>(count: 2)
        #expect(rejected.resolve(1, with: .rejected(TestError(5))))
        #expect(describe(rejected.all.peek()) == "cancelled(TestError(code: 5))")
        let cancelled = PromiseBatch<Int>(count: 2)
        #expect(cancelled.resolve(0, with: .cancelled(indirectError: nil)))
        #expect(describe(cancelled.all.peek()) == "cancelled(nil)")
    }

    @Test(
        "a request on all cancels it and stops the pending slots; a stop registered later runs at once, if its slot is pending"
    )
    func requestStopsPendingSlots() {
        let batch = PromiseBatch<Int>(count: 3)
        let stops = Recorder<Int>()
        batch.cancelWhenRequested(0) { stops.record(0) }
        #expect(batch.fulfil(0, with: 1))
        batch.cancelWhenRequested(1) { stops.record(1) }
        batch.all.requestCancellation()
        #expect(describe(batch.all.peek()) == "cancelled(nil)")
        #expect(stops.events == [1])
        batch.cancelWhenRequested(0) { stops.record(10) }  // fulfilled: never runs
        batch[2].cancelWhenRequested { stops.record(2) }  // pending: at once
        #expect(stops.events == [1, 2])
        #expect(!batch.fulfil(2, with: 3) && batch[2].isResolved)
    }

    @Test("a slot holds one stop: a second is reported and never runs; the first runs once on the request")
    func secondStopIsRefused() {
        let start = adjustedArguments.events.count
        let batch = PromiseBatch<Int>(count: 2)
        let stops = Recorder<Int>()
        batch.cancelWhenRequested(0) { stops.record(0) }
        batch[0].cancelWhenRequested { stops.record(100) }
        #expect(
            adjustmentReported(
                "PromiseBatch.cancelWhenRequested(_:stopping:)", given: "a second stop for slot 0", since: start))
        batch.all.requestCancellation()
        #expect(stops.events == [0])
        #expect(!batch.fulfil(0, with: 1) && batch.isResolved(0))
        #expect(!batch.isResolved(1))
    }

    @Test(
        "registrations racing fulfils and a request on three threads: every slot fulfilled or stopped, no stop lost, each run at most once and released exactly once"
    )
    func registrationsRacingRequest() {
        let released = Counter()
        for round in 0..<scaled(400) {
            let runs = Recorder<Int>()
            let fulfils = Atomic<Int>(0)
            do {
                let batch = PromiseBatch<Int>(count: 32)
                onThreads(3) { thread in
                    switch thread {
                    case 0:
                        for slot in 0..<32 {
                            let token = ReleaseCounter(released)
                            batch.cancelWhenRequested(slot) {
                                token.touch()
                                runs.record(slot)
                            }
                        }
                    case 1:
                        // The even slots only: an odd slot ends stopped, or its stop was lost.
                        for step in 0..<16 where batch.fulfil((step * 14 + 2 * round) % 32, with: 1) {
                            fulfils.add(1, ordering: .relaxed)
                        }
                    default:
                        batch.all.requestCancellation()
                    }
                }
                let stopped = runs.events
                #expect(Set(stopped).count == stopped.count)
                #expect(stopped.count + fulfils.load(ordering: .relaxed) == 32)
                #expect((0..<32).allSatisfy { batch.isResolved($0) })
            }
            // Every stop released, whoever held it last: the sweep, a fulfil, the registration.
            #expect(released.value == 32 * (round + 1))
        }
    }

    @Test("the first stops, registered on two threads at once, share the cells one of them made: each runs once")
    func firstStopsRacing() {
        let released = Counter()
        for round in 0..<scaled(3_000) {
            let runs = Recorder<Int>()
            do {
                let batch = PromiseBatch<Int>(count: 8)
                onThreads(2) { thread in
                    for slot in stride(from: thread, to: 8, by: 2) {
                        let token = ReleaseCounter(released)
                        batch.cancelWhenRequested(slot) {
                            token.touch()
                            runs.record(slot)
                        }
                    }
                }
                batch.all.requestCancellation()
                #expect(runs.events.sorted() == Array(0..<8))
            }
            #expect(released.value == 8 * (round + 1))
        }
    }

    @Test("stops of a batch dropped with its slots pending are released with it")
    func stopsReleasedWithTheBatch() {
        let released = Counter()
        do {
            let batch = PromiseBatch<Int>(count: 8, onRepeatedResolution: .ignore)
            for slot in 0..<8 {
                let token = ReleaseCounter(released)
                batch.cancelWhenRequested(slot) { token.touch() }
            }
            #expect(batch.fulfil(3, with: 3))
            #expect(released.value == 1)
        }
        #expect(released.value == 8)
    }

    @Test("a slot handle keeps its batch alive: all is fulfilled through handles alone")
    func handlesKeepTheBatch() {
        var batch: PromiseBatch<Int>? = PromiseBatch(count: 2)
        let all = batch!.all
        let handles = [batch![0], batch![1]]
        batch = nil
        #expect(handles.map(\.index) == [0, 1])
        #expect(handles[1].fulfil(with: 20) && handles[0].fulfil(with: 10))
        #expect(describe(all.peek()) == "fulfilled([10, 20])")
    }

    @Test("a batch dropped with slots pending cancels all with AbandonedPromiseError naming its site, and is reported")
    func droppedBatch() {
        _ = probeDiagnostics
        let line: UInt = #line
        var batch: PromiseBatch<BatchProbe>? = PromiseBatch(count: 2, line: line)
        let all = batch!.all
        #expect(batch!.fulfil(0, with: BatchProbe()))
        batch = nil
        let error = all.peek()?.error as? AbandonedPromiseError
        #expect(error?.description.contains("PromiseBatchTests.swift:\(line)") == true)
        #expect(count(of: .abandonedPromise, atLine: line) == 1)
    }

    @Test("values are freed: moved into all when every slot is fulfilled, or freed with a batch dropped half-fulfilled")
    func valuesAreFreed() {
        weak var kept: Tracked?
        weak var dropped: Tracked?
        do {
            let full = PromiseBatch<Tracked>(count: 2)
            let value = Tracked(1)
            kept = value
            full.fulfil(0, with: value)
            full.fulfil(1, with: Tracked(2))
            #expect(full.all.peek()?.value?.first === value)
        }
        do {
            let half = PromiseBatch<Tracked>(count: 2)
            let value = Tracked(3)
            dropped = value
            half.fulfil(1, with: value)
        }
        #expect(kept == nil && dropped == nil)
    }

    @Test("threads racing to fulfil every slot: each slot is won once, and all holds each winner's value")
    func racingFulfils() {
        for _ in 0..<200 {
            let batch = PromiseBatch<Int>(count: 64, onRepeatedResolution: .ignore)
            let winners = Winners(64)
            onThreads(4) { thread in
                for slot in 0..<64 where batch[slot].fulfil(with: slot * 4 + thread) {
                    winners.record(slot, slot * 4 + thread)
                }
            }
            #expect(winners.count == 64)
            #expect(batch.all.peek()?.value == winners.values)
        }
    }

    @Test(
        "a request racing the fulfils: each slot is fulfilled or stopped, exactly once; all is fulfilled only if none was stopped"
    )
    func requestRacingFulfils() {
        for _ in 0..<500 {
            let batch = PromiseBatch<Int>(count: 16)
            let stops = Atomic<Int>(0)
            let fulfils = Atomic<Int>(0)
            for slot in 0..<16 { batch.cancelWhenRequested(slot) { stops.add(1, ordering: .relaxed) } }
            onThreads(2) { thread in
                if thread == 0 {
                    for slot in 0..<16 where batch.fulfil(slot, with: slot) { fulfils.add(1, ordering: .relaxed) }
                } else {
                    batch.all.requestCancellation()
                }
            }
            #expect(stops.load(ordering: .relaxed) + fulfils.load(ordering: .relaxed) == 16)
            // The request may cancel all after the last slot was claimed, before its fulfil
            // resolved all; a stopped slot always leaves all cancelled.
            let outcome = batch.all.peek()
            if let values = outcome?.value {
                #expect(values == Array(0..<16) && stops.load(ordering: .relaxed) == 0)
            } else {
                #expect(outcome?.isCancelled == true)
            }
        }
    }

    @Test("failures racing fulfils and stops on four threads: every slot claimed once, the first failure decides all")
    func failuresRacingFulfils() {
        for round in 0..<300 {
            let batch = PromiseBatch<Int>(count: 32, onRepeatedResolution: .ignore)
            let stops = Atomic<Int>(0)
            let fulfils = Atomic<Int>(0)
            let failures = Atomic<Int>(0)
            for slot in 0..<32 { batch.cancelWhenRequested(slot) { stops.add(1, ordering: .relaxed) } }
            onThreads(4) { thread in
                for step in 0..<32 {
                    let slot = (step * 5 + thread * 8) % 32
                    let fails = thread == 3 && slot == round % 32
                    if fails, batch.reject(slot, with: TestError(slot)) {
                        failures.add(1, ordering: .relaxed)
                    } else if !fails, batch.fulfil(slot, with: slot) {
                        fulfils.add(1, ordering: .relaxed)
                    }
                }
            }
            let (stopped, fulfilled, failed) =
                (stops.load(ordering: .relaxed), fulfils.load(ordering: .relaxed), failures.load(ordering: .relaxed))
            #expect(stopped + fulfilled + failed == 32)
            switch batch.all.peek() {
            case .fulfilled(let values)?: #expect(values == Array(0..<32) && failed == 0 && stopped == 0)
            case .cancelled(let error)?: #expect(failed == 1 && error as? TestError == TestError(round % 32))
            default: Issue.record("all is \(describe(batch.all.peek()))")
            }
        }
    }
}

/// A value type whose abandoned batches the recording handler keeps.
private struct BatchProbe: DiagnosticProbe, Sendable {}

/// Each slot's winning value, written by the winner.
private final class Winners: @unchecked Sendable {
    // @unchecked: the slots are touched only through their atomics.
    private let slots: UnsafeMutablePointer<Atomic<Int>>
    private let size: Int
    private let wins = Atomic<Int>(0)

    init(_ size: Int) {
        self.size = size
        slots = .allocate(capacity: size)
        for slot in 0..<size { (slots + slot).initialize(to: Atomic(-1)) }
    }

    deinit {
        slots.deinitialize(count: size)
        slots.deallocate()
    }

    func record(_ slot: Int, _ value: Int) {
        slots[slot].store(value, ordering: .relaxed)
        wins.add(1, ordering: .relaxed)
    }

    var count: Int { wins.load(ordering: .relaxed) }
    var values: [Int] { (0..<size).map { slots[$0].load(ordering: .relaxed) } }
}
