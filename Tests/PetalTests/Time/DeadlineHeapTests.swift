import Testing

@testable import Petal

/// The scheduler's heap of deadlines, which holds its entries unmanaged (retained once while in
/// the heap): entries come out earliest first whatever the order of insertions and removals,
/// each remembers its place, and none outlives a scheduler dropped with it pending.
@Suite("Time: the heap of deadlines")
struct DeadlineHeapTests {
    /// An object whose release the tests watch.
    final class Held: Sendable {}

    @Test("a manual clock dropped with deadlines still pending frees them and what their actions hold")
    func droppedClockFreesPendingDeadlines() throws {
        weak var held: Held?
        weak var entry: DeadlineEntry?
        do {
            let clock = DeadlineClock.manual()
            let object = Held()
            held = object
            let pending = DeadlineEntry(deadline: clock.now + .seconds(1)) { _ = object }
            entry = pending
            try clock.schedule(pending)
            #expect(clock.pendingDeadlineCount == 1)
        }
        #expect(held == nil)
        #expect(entry == nil)
    }

    @Test(
        "2,000 deadlines scheduled in a shuffled order, a third taken out at random: the rest run earliest first, each once"
    )
    func shuffledInsertionsAndRemovals() throws {
        var random = SeededGenerator(seed: 56)
        let clock = DeadlineClock.manual()
        let start = clock.now
        let ran = Recorder<Int>()
        // Deadlines 0...1999 ms, several on the same millisecond (ties run in scheduling order).
        var order = Array(0..<2_000)
        for index in order.indices.reversed() { order.swapAt(index, Int(random.next() % UInt64(index + 1))) }
        var entries: [Int: DeadlineEntry] = [:]
        for key in order {
            let entry = DeadlineEntry(deadline: start + .milliseconds(key / 4)) { ran.record(key) }
            entries[key] = entry
            try clock.schedule(entry)
        }
        var removed = Set<Int>()
        for key in order where random.next() % 3 == 0 {
            #expect(clock.cancel(entries[key].unsafelyUnwrapped))
            removed.insert(key)
        }
        // Taken out once: a second cancel finds nothing.
        if let key = removed.first { #expect(!clock.cancel(entries[key].unsafelyUnwrapped)) }
        #expect(clock.pendingDeadlineCount == 2_000 - removed.count)
        clock.advance(by: .seconds(1))
        let events = ran.events
        #expect(events.count == 2_000 - removed.count)
        #expect(Set(events).isDisjoint(with: removed))
        // Earliest first; on the same millisecond, in the order they were scheduled.
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($0.element, $0.offset) })
        let sorted = events.sorted { ($0 / 4, position[$0]!) < ($1 / 4, position[$1]!) }
        #expect(events == sorted)
        #expect(clock.pendingDeadlineCount == 0)
    }
}
