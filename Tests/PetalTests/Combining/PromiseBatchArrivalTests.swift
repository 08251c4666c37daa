import Petal
import Synchronization
import Testing

@Suite("PromiseBatch: slots taken in arrival order")
struct PromiseBatchArrivalTests {
    @Test(
        "arrivals take the slots in turn: all holds the values in the order they came, fulfilled by the last"
    )
    func arrivalsInOrder() {
        let batch = PromiseBatch<String>(count: 3)
        #expect(batch.fulfilNext(with: "x"))
        #expect(batch.fulfilNext(with: "y"))
        #expect(describe(batch.all.peek()) == "pending")
        #expect(batch.isResolved(0) && batch.isResolved(1) && !batch.isResolved(2))
        #expect(batch.resolveNext(with: .fulfilled("z")))
        #expect(describe(batch.all.peek()) == #"fulfilled(["x", "y", "z"])"#)
    }

    @Test(
        "an arrival too many resolves nothing and is reported as a repeat at the batch's site; so is one on no slots"
    )
    func surplusArrivalIsReported() {
        let (batch, line) = reportingBatch(count: 2)
        #expect(batch.fulfilNext(with: 1) && batch.fulfilNext(with: 2))
        #expect(!batch.fulfilNext(with: 3))
        #expect(!batch.rejectNext(with: TestError(1)))
        #expect(!batch.cancelNext())
        #expect(describe(batch.all.peek()) == "fulfilled([1, 2])")
        #expect(repeatCount(atLine: line) == 3)

        let (empty, emptyLine) = reportingBatch(count: 0)
        #expect(!empty.fulfilNext(with: 1))
        #expect(repeatCount(atLine: emptyLine) == 1)
    }

    @Test("a slot resolved by index is passed over: the arrivals fill the others")
    func indexedSlotsArePassedOver() {
        let (batch, line) = reportingBatch(count: 4)
        #expect(batch.fulfil(0, with: 10))
        #expect(batch.fulfil(2, with: 12))
        #expect(batch.fulfilNext(with: 1))
        #expect(batch.fulfilNext(with: 3))
        #expect(describe(batch.all.peek()) == "fulfilled([10, 1, 12, 3])")
        #expect(!batch.fulfil(1, with: 0))  // taken by an arrival: a repeat by index
        #expect(repeatCount(atLine: line) == 1)
    }

    @Test(
        "an arrival's failure cancels all with its error and runs the batch's stop; later arrivals fill slots unreported"
    )
    func failureStopsTheBatch() {
        let (batch, line) = reportingBatch(count: 3)
        let stops = Counter()
        batch.cancelWhenRequested { stops.increment() }
        #expect(batch.fulfilNext(with: 1))
        #expect(batch.rejectNext(with: TestError(7)))
        #expect(describe(batch.all.peek()) == "cancelled(TestError(code: 7))")
        #expect(stops.value == 1)
        #expect(batch.fulfilNext(with: 3))  // an answer on its way: into nothing
        #expect(repeatCount(atLine: line) == 0)
    }

    @Test("an arrival that takes a slot stopped by its own stop resolves nothing, unreported")
    func stoppedSlotIsNotReported() {
        let (batch, line) = reportingBatch(count: 2)
        let stops = Counter()
        batch.cancelWhenRequested(0) { stops.increment() }
        batch.all.requestCancellation()
        #expect(stops.value == 1)
        #expect(!batch.fulfilNext(with: 1))  // slot 0, stopped
        #expect(batch.cancelNext())  // slot 1, pending: resolved, into nothing
        #expect(repeatCount(atLine: line) == 0)
    }

    @Test(
        "threads arriving at once, four slots taken by index among them: every slot filled exactly once, all holds every value, then an arrival too many is refused"
    )
    func concurrentArrivals() {
        let threads = 4
        let perThread = 16
        let count = threads * perThread + 4
        let indexed = [0, 1, count - 2, count - 1]
        for round in 0..<scaled(1_000) {
            let batch = PromiseBatch<Int>(count: count, onRepeatedResolution: .ignore)
            let taken = Atomic<Int>(0)
            onThreads(threads + 1) { thread in
                if thread == threads {
                    // By index, racing the arrivals for the first slots (one that lost its slot
                    // arrives instead); the last slots are the arrivals' to pass over.
                    for (offset, index) in indexed.enumerated()
                    where batch.fulfil(index, with: -1 - offset) || batch.fulfilNext(with: -1 - offset) {
                        taken.add(1, ordering: .relaxed)
                    }
                    return
                }
                for step in 0..<perThread where batch.fulfilNext(with: thread * perThread + step + round) {
                    taken.add(1, ordering: .relaxed)
                }
            }
            // An arrival that lost a slot to an index took the next: none is left pending.
            #expect(taken.load(ordering: .relaxed) == count)
            guard case .fulfilled(let values)? = batch.all.peek() else {
                Issue.record("round \(round): all is \(describe(batch.all.peek()))")
                return
            }
            #expect(Set(values).count == count)
            #expect(values.filter { $0 >= 0 }.map { $0 - round }.sorted() == Array(0..<threads * perThread))
            #expect(!batch.fulfilNext(with: 0))
        }
    }
}

/// A batch of `count` slots made at the caller's line, which `repeatCount(atLine:)` then reads,
/// with the recorder of repeats installed.
private func reportingBatch(count: Int, line: UInt = #line) -> (PromiseBatch<Int>, UInt) {
    _ = repeatedResolutions
    return (PromiseBatch<Int>(count: count, line: line), line)
}
