import Foundation
import Petal
import Testing

// The pool's moves, one at a time: add, the prune an add triggers, drain, and a drain inside a
// drain, each followed by the exact number of entries the pool stores; then drains racing each
// other and adds on many threads, with every ask counted. The pool's state is a list of
// retained objects holding weak references, so these tests drive the real pool rather than a
// model of it: what matters (an item dying, an entry unlinked, a reference released) happens to
// objects.

/// Adds `count` items that are gone as soon as each add returns.
private func addGoneItems(_ count: Int, to pool: CancellationPool) {
    for _ in 0..<count { pool.add(CountingCancellable()) }
}

/// One item's `attemptCancel`: which thread asked it, and which of whose items it is.
private struct Ask: Sendable {
    let thread: ObjectIdentifier
    let adder: Int
    let index: Int
}

/// A reference the test can let go of from inside an item's `attemptCancel`.
private final class Holder: @unchecked Sendable {
    // @unchecked: only touched on the test's own thread (the drain asks on the draining thread).
    var item: CountingCancellable?
}

@Suite("Jobs: cancellation pools, move by move")
struct CancellationPoolTransitionTests {
    @Test("each add stores one entry, and an entry whose item is gone stays until a prune or a drain")
    func addStoresAnEntry() {
        let pool = CancellationPool()
        let live = CountingCancellable()
        pool.add(live)
        #expect(pool.storedEntryCount == 1)
        addGoneItems(3, to: pool)
        #expect(pool.storedEntryCount == 4)
        pool.drain()
        #expect(live.asked.value == 1)
        #expect(pool.storedEntryCount == 0)
    }

    @Test("the first prune comes with the 64th entry and unlinks every gone item behind the newest")
    func firstPruneAtSixtyFour() {
        let pool = CancellationPool()
        addGoneItems(63, to: pool)
        #expect(pool.storedEntryCount == 63)
        addGoneItems(1, to: pool)
        // The newest entry is never pruned (only adds touch the head); its item was alive then.
        #expect(pool.storedEntryCount == 1)
    }

    @Test("the next prune waits for twice the entries that survived the last one, and never for fewer than 64")
    func pruneThresholdFollowsTheSurvivors() {
        let pool = CancellationPool()
        var live = (0..<40).map { _ in CountingCancellable() }
        for item in live { pool.add(item) }
        addGoneItems(23, to: pool)
        #expect(pool.storedEntryCount == 63)
        addGoneItems(1, to: pool)
        // 40 live items and the newest entry survive: the next prune is at 82 entries.
        #expect(pool.storedEntryCount == 41)
        addGoneItems(40, to: pool)
        #expect(pool.storedEntryCount == 81)
        addGoneItems(1, to: pool)
        #expect(pool.storedEntryCount == 41)
        // Once the live items are gone the list prunes down to its newest entry, and the
        // threshold falls back to 64, not 2.
        live.removeAll()
        addGoneItems(40, to: pool)
        #expect(pool.storedEntryCount == 81)
        addGoneItems(1, to: pool)
        #expect(pool.storedEntryCount == 1)
        addGoneItems(62, to: pool)
        #expect(pool.storedEntryCount == 63)
        addGoneItems(1, to: pool)
        #expect(pool.storedEntryCount == 1)
    }

    @Test("a drain gives its entries back to the count: the next prune still waits for 64 new entries")
    func drainResetsTheCount() {
        let pool = CancellationPool()
        addGoneItems(50, to: pool)
        pool.drain()
        #expect(pool.storedEntryCount == 0)
        addGoneItems(63, to: pool)
        #expect(pool.storedEntryCount == 63)
        addGoneItems(1, to: pool)
        #expect(pool.storedEntryCount == 1)
    }

    @Test("a prune keeps the live items in the order they were added, and the drain asks them oldest first")
    func pruneKeepsOrder() {
        let pool = CancellationPool()
        let order = Recorder<Int>()
        let live = (0..<6).map { index in CountingCancellable { _ in order.record(index) } }
        for item in live {
            pool.add(item)
            addGoneItems(10, to: pool)
        }
        // 66 adds: the prune at the 64th left the 6 live items and the newest entry.
        #expect(pool.storedEntryCount == 9)
        pool.drain()
        #expect(order.events == Array(0..<6))
        #expect(live.allSatisfy { $0.asked.value == 1 })
    }

    @Test("an item gone before the drain is not asked, and its entry goes with the drain")
    func goneItemNotAsked() {
        let pool = CancellationPool()
        let asked: Counter
        do {
            let item = CountingCancellable()
            asked = item.asked
            pool.add(item)
        }
        #expect(pool.storedEntryCount == 1)
        pool.drain()
        #expect(asked.value == 0)
        #expect(pool.storedEntryCount == 0)
    }

    @Test("an item alive when the drain takes the pool is asked, even if it is let go of during the drain")
    func itemAliveAtTheTakeIsAsked() {
        let pool = CancellationPool()
        let holder = Holder()
        let laterAsked: Counter
        let dropper = CountingCancellable { _ in holder.item = nil }
        weak var weakLater: CountingCancellable?
        do {
            let later = CountingCancellable()
            laterAsked = later.asked
            weakLater = later
            holder.item = later
            pool.add(dropper)
            pool.add(later)
        }
        pool.drain()
        #expect(dropper.asked.value == 1)
        #expect(laterAsked.value == 1)
        #expect(weakLater == nil)
    }

    @Test("a drain takes only the entries present when it begins; items added during it wait for the next drain")
    func drainTakesOnlyWhatWasThere() {
        let pool = CancellationPool()
        let late = (0..<2).map { _ in CountingCancellable() }
        let adder = CountingCancellable { _ in
            for item in late { pool.add(item) }
        }
        let other = CountingCancellable()
        pool.add(adder)
        pool.add(other)
        pool.drain()
        #expect(adder.asked.value == 1)
        #expect(other.asked.value == 1)
        #expect(late.allSatisfy { $0.asked.value == 0 })
        #expect(pool.storedEntryCount == 2)
        pool.drain()
        #expect(late.allSatisfy { $0.asked.value == 1 })
        #expect(adder.asked.value == 1)
        #expect(pool.storedEntryCount == 0)
    }

    @Test("a drain inside a drain takes what was added since the outer one began, and each item is asked once")
    func drainInsideADrain() {
        let pool = CancellationPool()
        let order = Recorder<String>()
        let second = CountingCancellable { _ in order.record("second") }
        let third = CountingCancellable { _ in order.record("third") }
        let first = CountingCancellable { _ in
            order.record("first")
            pool.add(second)
            pool.add(third)
            pool.drain()
            order.record("first, after its drain")
        }
        let last = CountingCancellable { _ in order.record("last") }
        pool.add(first)
        pool.add(last)
        pool.drain()
        #expect(order.events == ["first", "second", "third", "first, after its drain", "last"])
        #expect([first, second, third, last].allSatisfy { $0.asked.value == 1 })
        #expect(pool.storedEntryCount == 0)
    }

    @Test("drains racing each other and adds on many threads ask every live item exactly once, oldest first")
    func racingDrainsAskEachItemOnce() {
        let rounds = scaled(100, floor: 10)
        let adders = 2
        let drainers = 2
        let perAdder = scaled(300, floor: 60)
        for round in 0..<rounds {
            let pool = CancellationPool()
            let log = Recorder<Ask>()
            // Items of adder `adders` are in the pool before the threads start.
            let items = (0...adders).map { adder in
                (0..<perAdder).map { index in
                    CountingCancellable { _ in
                        log.record(Ask(thread: ObjectIdentifier(Thread.current), adder: adder, index: index))
                    }
                }
            }
            for item in items[adders] { pool.add(item) }
            onThreads(adders + drainers) { thread in
                if thread < adders {
                    for item in items[thread] {
                        pool.add(item)
                        // A gone item between live ones, so that prunes unlink while drains run.
                        pool.add(CountingCancellable())
                    }
                } else {
                    for _ in 0..<perAdder / 4 { pool.drain() }
                }
            }
            pool.drain()
            let all = items.joined()
            let notOnce = all.filter { $0.asked.value != 1 }.count
            #expect(notOnce == 0, "round \(round): \(notOnce) items not asked exactly once")
            #expect(log.events.count == all.count, "round \(round)")
            #expect(pool.storedEntryCount == 0)
            // Every drain asks in the order of the adds, so on any one thread, whose drains
            // follow each other, each adder's items come in the order it added them.
            var lastIndex: [ObjectIdentifier: [Int: Int]] = [:]
            var outOfOrder = 0
            for ask in log.events {
                if let previous = lastIndex[ask.thread]?[ask.adder], previous >= ask.index { outOfOrder += 1 }
                lastIndex[ask.thread, default: [:]][ask.adder] = ask.index
            }
            #expect(outOfOrder == 0, "round \(round): \(outOfOrder) items asked before an older one")
        }
    }
}
