import Testing

@testable import Petal

@Suite("Chaining: memory")
struct ChainMemoryTests {
    @Test("an intermediate future is freed as soon as it has delivered")
    func intermediateFreedAfterDelivery() {
        let head = Promise<Int>()
        weak var middle: FutureStorage<Int>?
        let tail: Future<Int>
        do {
            let step = head.future.then { $0 + 1 }
            middle = step.storage
            tail = step.then { $0 * 2 }
        }
        // Pending, the middle link is held by the head, which will deliver to it.
        #expect(middle != nil)
        head.fulfil(with: 1)
        #expect(middle == nil)
        #expect(tail.peek()?.value == 4)
    }

    @Test("a chain nobody holds still completes: its producer keeps it alive")
    func unheldChainCompletes() {
        let head = Promise<Int>()
        let seen = Recorder<Int>()
        weak var last: FutureStorage<Int>?
        do {
            let end = head.future.then { $0 + 1 }.recover(using: 0).always {}.then { $0 * 10 }
            end.whenFulfilled { seen.record($0) }
            last = end.storage
        }
        #expect(last != nil)
        head.fulfil(with: 1)
        #expect(seen.events == [20])
        #expect(last == nil)
    }

    @Test("a step's closure and its captures are freed once it has run, while its future lives on")
    func stepClosureFreedAfterRunning() {
        let head = Promise<Int>()
        weak var captured: Tracked?
        let chained: Future<Int>
        do {
            let object = Tracked(5)
            captured = object
            chained = head.future.then { $0 + object.id }
        }
        #expect(captured != nil)
        head.fulfil(with: 1)
        #expect(captured == nil)
        #expect(chained.peek()?.value == 6)
    }

    @Test("a step that never runs frees its closure when the failure passes it")
    func skippedStepFreed() {
        let head = Promise<Int>()
        weak var captured: Tracked?
        let chained: Future<Int>
        do {
            let object = Tracked(5)
            captured = object
            chained = head.future.then { $0 + object.id }
        }
        head.reject(with: TestError(1))
        #expect(captured == nil)
        #expect(chained.peek()?.isCancelled == true)
    }

    @Test("an abandoned head cancels its whole chain and frees every link and capture")
    func abandonedHeadFreesChain() {
        weak var captured: Tracked?
        weak var link: FutureStorage<Int>?
        let tail: Future<Int>
        do {
            let head = Promise<Int>()
            let object = Tracked(5)
            captured = object
            let first = head.future.then { $0 + object.id }
            link = first.storage
            tail = first.then { $0 }
        }
        #expect(captured == nil)
        #expect(link == nil)
        #expect(tail.peek()?.error is AbandonedPromiseError)
    }

    @Test("a then step is one small allocation that holds the closure")
    func stepSize() {
        let head = Promise<Int>()
        let offset = 3
        // A chunk of the request's own class, whatever earlier tests left free.
        fillSmallChunkCache(through: 88)
        let step = head.future.then { $0 + offset }
        // Object header 16 + header 40 + the value 8 + the step (an empty inline context and
        // a closure, 16, plus the optional's tag): 81 bytes asked for, a 96-byte chunk with 88
        // usable.
        #expect(step.allocatedByteCount <= 88)
        head.fulfil(with: 1)
        #expect(step.peek()?.value == 4)
    }

    @Test("an internal future freed before it resolved frees every waiter and step")
    func unresolvedStorageFreesWaiters() {
        weak var inSlot: Tracked?
        weak var inNode: Tracked?
        weak var inStep: Tracked?
        do {
            let orphan = Future(storage: FutureStorage<Int>.makePending())
            let first = Tracked(1)
            let second = Tracked(2)
            let third = Tracked(3)
            inSlot = first
            inNode = second
            inStep = third
            orphan.whenFulfilled { _ in _ = first.id }
            orphan.whenFulfilled { _ in _ = second.id }
            _ = orphan.then { $0 + third.id }
        }
        #expect(inSlot == nil)
        #expect(inNode == nil)
        #expect(inStep == nil)
    }
}
