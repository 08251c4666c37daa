import CPetal
import Testing

@testable import Petal

/// The slots reserved in each block of a pending future's waiter list, newest first: the
/// newest has the word's count, each older one what the block above it recorded.
func waiterBlocks<Value>(of future: Future<Value>) -> [UInt32] {
    let word = petal_cell_load(future.storage.cell)
    var reserved: [UInt32] = []
    var count = petal_word_count(word)
    var next = petal_word_list(word)
    while let block = next {
        reserved.append(min(count, block.pointee.capacity))
        count = block.pointee.below
        next = block.pointee.next
    }
    return reserved
}

@Suite("Waiter blocks")
struct WaiterBlockTests {
    @Test("the first subscriber takes the inline slot, and later ones share blocks of seven")
    func subscribersShareBlocks() {
        let promise = Promise<Int>()
        promise.future.whenFulfilled { _ in }
        #expect(waiterBlocks(of: promise.future).isEmpty)
        for count in 1...15 {
            promise.future.whenFulfilled { _ in }
            // Newest first: a partly filled head, then full blocks.
            let expected = [UInt32((count - 1) % 7 + 1)] + Array(repeating: 7, count: (count - 1) / 7)
            #expect(waiterBlocks(of: promise.future) == expected)
        }
        promise.fulfil(with: 1)
    }

    @Test("callbacks spread over many blocks run once each, in subscription order")
    func orderAcrossBlocks() {
        let promise = Promise<Int>()
        let ran = Recorder<Int>()
        for index in 0..<100 {
            promise.future.whenFulfilled { value in ran.record(index * 10 + value) }
        }
        promise.fulfil(with: 3)
        #expect(ran.events == (0..<100).map { $0 * 10 + 3 })
    }

    @Test("callbacks subscribed while earlier ones run go to new blocks and run after them, in order")
    func subscribersDuringDelivery() {
        let promise = Promise<Int>()
        let future = promise.future
        let ran = Recorder<String>()
        for index in 0..<10 {
            future.whenFulfilled { _ in
                ran.record("first \(index)")
                // Each first-round callback adds two more while delivery is under way.
                for late in 0..<2 {
                    future.whenFulfilled { _ in ran.record("late \(index).\(late)") }
                }
            }
        }
        promise.fulfil(with: 1)
        let expected =
            (0..<10).map { "first \($0)" } + (0..<10).flatMap { index in (0..<2).map { "late \(index).\($0)" } }
        #expect(ran.events == expected)
        #expect(future.storage.hasWaiters == false)
    }

    @Test("many threads subscribing hundreds each while others resolve: every callback once, in each thread's order")
    func hotFutureUnderContention() {
        let rounds = scaled(40)
        let subscribers = 4
        let perThread = 200
        for round in 0..<rounds {
            let promise = Promise<Int>(onRepeatedResolution: .ignore)  // the resolvers race on purpose
            let future = promise.future
            let ran = (0..<subscribers).map { _ in Recorder<Int>() }
            let winners = Counter()
            onThreads(subscribers + 2) { index in
                if index < subscribers {
                    for callback in 0..<perThread {
                        future.whenFulfilled { value in
                            #expect(value == round)
                            ran[index].record(callback)
                        }
                    }
                } else if promise.fulfil(with: round) {
                    winners.increment()
                }
            }
            #expect(winners.value == 1)
            for record in ran {
                #expect(record.events == Array(0..<perThread))
            }
        }
    }

    @Test("a future freed unresolved frees the callbacks waiting in every block")
    func unresolvedBlocksAreFreed() {
        weak var first: Tracked?
        weak var last: Tracked?
        do {
            let orphan = Future(storage: FutureStorage<Int>.makePending())
            let trackers = (0..<20).map { Tracked($0) }
            first = trackers.first
            last = trackers.last
            for tracker in trackers {
                orphan.whenFulfilled { _ in _ = tracker.id }
            }
            #expect(waiterBlocks(of: orphan) == [5, 7, 7])
        }
        #expect(first == nil)
        #expect(last == nil)
    }
}
