// The prototypes are the Prototypes trait's: without it, there is nothing to test.
#if Prototypes
    import Foundation
    import Petal
    import PetalPrototypes
    import Synchronization
    import Testing

    @Suite("Prototypes: the promise batch")
    struct PromiseBatchTests {
        @Test("every slot fulfilled: all is fulfilled with the values in slot order; a second fulfil is refused")
        func fulfilsInSlotOrder() {
            let batch = PromiseBatch<String>(count: 3)
            #expect(batch.fulfil(2, with: "c"))
            #expect(batch.fulfil(0, with: "a"))
            #expect(batch.all.peek() == nil)
            #expect(batch.fulfil(1, with: "b"))
            #expect(!batch.fulfil(1, with: "x"))
            #expect(batch.all.peek()?.value == ["a", "b", "c"])
        }

        @Test("threads racing to fulfil every slot: each slot is won once, and all holds each winner's value")
        func racingFulfils() {
            for _ in 0..<200 {
                let batch = PromiseBatch<Int>(count: 64)
                let wins = Atomic<Int>(0)
                let winners = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: 64)
                for slot in 0..<64 { (winners + slot).initialize(to: Atomic(-1)) }
                let shared = UncheckedPointer(winners)
                onThreads(4) { thread in
                    for slot in 0..<64 where batch.fulfil(slot, with: slot * 4 + thread) {
                        wins.add(1, ordering: .relaxed)
                        shared.pointer[slot].store(slot * 4 + thread, ordering: .relaxed)
                    }
                }
                #expect(wins.load(ordering: .relaxed) == 64)
                #expect(batch.all.peek()?.value == (0..<64).map { winners[$0].load(ordering: .relaxed) })
                winners.deinitialize(count: 64)
                winners.deallocate()
            }
        }

        @Test(
            "a cancellation request racing the fulfils: each slot is fulfilled or stopped, exactly once; all is fulfilled only if none was stopped"
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
                // The request may cancel all after every slot was fulfilled, before the last
                // fulfil resolved it; a stopped slot always leaves it cancelled.
                let outcome = batch.all.peek()
                if let values = outcome?.value {
                    #expect(values == Array(0..<16))
                    #expect(stops.load(ordering: .relaxed) == 0)
                } else {
                    #expect(outcome?.isCancelled == true)
                }
            }
        }

        @Test("a stop registered after the request runs at once, for a slot still pending only")
        func stopAfterRequest() {
            let batch = PromiseBatch<Int>(count: 2)
            #expect(batch.fulfil(0, with: 1))
            batch.all.requestCancellation()
            let stops = Atomic<Int>(0)
            batch.cancelWhenRequested(0) { stops.add(1, ordering: .relaxed) }
            #expect(stops.load(ordering: .relaxed) == 0)
            batch.cancelWhenRequested(1) { stops.add(1, ordering: .relaxed) }
            #expect(stops.load(ordering: .relaxed) == 1)
            #expect(!batch.fulfil(1, with: 2))
            #expect(batch.all.peek()?.isCancelled == true)
        }

        @Test("dropping the batch with a slot pending cancels all")
        func droppedBatch() {
            var batch: PromiseBatch<Int>? = PromiseBatch(count: 2)
            let all = batch!.all
            #expect(batch!.fulfil(0, with: 1))
            batch = nil
            #expect(all.peek()?.isCancelled == true)
        }
    }

    /// A pointer handed to the test's threads, which touch its memory only through atomics.
    private struct UncheckedPointer: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<Atomic<Int>>
        init(_ pointer: UnsafeMutablePointer<Atomic<Int>>) { self.pointer = pointer }
    }

    /// Runs `body(index)` on `count` threads and returns once all have finished.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            Thread {
                body(index)
                finished.leave()
            }.start()
        }
        finished.wait()
    }
#endif
