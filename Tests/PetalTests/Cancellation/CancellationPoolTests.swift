import Petal
import Testing

@Suite("Jobs: cancellation pools")
struct CancellationPoolTests {
    @Test("drain asks every live item once, oldest first, and empties the pool")
    func drainAsksEachOnce() {
        let pool = CancellationPool()
        let order = Recorder<Int>()
        let items = (0..<5).map { index in CountingCancellable { _ in order.record(index) } }
        pool.add(contentsOf: items)
        pool.drain()
        #expect(order.events == [0, 1, 2, 3, 4])
        pool.drain()
        #expect(items.allSatisfy { $0.asked.value == 1 })
        #expect(pool.storedEntryCount == 0)
    }

    @Test("the pool holds items weakly")
    func holdsWeakly() {
        let pool = CancellationPool()
        weak var weakItem: CountingCancellable?
        do {
            let item = CountingCancellable()
            weakItem = item
            pool.add(item)
        }
        #expect(weakItem == nil)
        pool.drain()
    }

    @Test("dead entries are pruned: a long run of short-lived items does not pile up")
    func deadEntriesPruned() {
        let pool = CancellationPool()
        let live = CountingCancellable()
        pool.add(live)
        for _ in 0..<scaled(100_000, floor: 5_000) {
            let job = MapJob<Int, Int> { $0 }
            pool.add(job)
            _ = Future.start(running: job, with: 1)
        }
        #expect(pool.storedEntryCount <= 130)
        pool.drain()
        #expect(live.asked.value == 1)
    }

    @Test("dead entries are pruned under concurrent adds from many threads")
    func prunedConcurrently() {
        let pool = CancellationPool()
        onThreads(4) { _ in
            for _ in 0..<scaled(20_000, floor: 2_000) { pool.add(CountingCancellable()) }
        }
        #expect(pool.storedEntryCount <= 140)
    }

    @Test("an item that adds to the pool while being cancelled waits for the next drain")
    func reentrantAdd() {
        let pool = CancellationPool()
        let added = CountingCancellable()
        let adder = CountingCancellable { _ in pool.add(added) }
        pool.add(adder)
        pool.drain()
        #expect(adder.asked.value == 1)
        #expect(added.asked.value == 0)
        pool.drain()
        #expect(added.asked.value == 1)
        #expect(adder.asked.value == 1)
    }

    @Test("an item that drains the same pool while being cancelled does not deadlock")
    func reentrantDrain() {
        let pool = CancellationPool()
        let other = CountingCancellable()
        let drainer = CountingCancellable { _ in pool.drain() }
        pool.add(drainer)
        pool.add(other)
        pool.drain()
        #expect(drainer.asked.value == 1)
        #expect(other.asked.value == 1)
    }

    @Test("an item that re-adds itself does not make a drain loop forever")
    func selfReAdding() {
        let pool = CancellationPool()
        let item = CountingCancellable { pool.add($0) }
        pool.add(item)
        pool.drain()
        pool.drain()
        #expect(item.asked.value == 2)
    }

    @Test("concurrent adds and drains lose nothing: every item is asked once, by some drain")
    func concurrentAddAndDrain() {
        for _ in 0..<scaled(20, floor: 3) {
            let pool = CancellationPool()
            let perThread = scaled(2_000, floor: 200)
            let items = Recorder<CountingCancellable>()
            onThreads(4) { index in
                if index == 0 {
                    for _ in 0..<perThread / 10 { pool.drain() }
                } else {
                    for _ in 0..<perThread {
                        let item = CountingCancellable()
                        items.record(item)
                        pool.add(item)
                    }
                }
            }
            pool.drain()
            let all = items.events
            #expect(all.count == perThread * 3)
            #expect(all.allSatisfy { $0.asked.value == 1 })
        }
    }
}
