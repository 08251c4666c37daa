/// The pending deadlines of a ``DeadlineScheduler``, earliest first: a binary min-heap on
/// (deadline, order of scheduling), so that equal deadlines run first come, first served.
///
/// Every entry remembers its index here (`DeadlineEntry.heapIndex`), so that an entry whose
/// future resolved first is taken out in O(log n) rather than found by a walk. Not thread-safe:
/// the scheduler keeps it under its lock.
struct DeadlineHeap {
    /// The entries, `entries[0]` due first.
    private var entries: [DeadlineEntry] = []
    /// The order of the next entry scheduled, for ties between equal deadlines.
    private var nextSequence: UInt64 = 0

    /// The entry due first, if any.
    var first: DeadlineEntry? { entries.first }

    /// How many entries wait.
    var count: Int { entries.count }

    /// Whether `entry` sits where it remembers sitting.
    func holds(_ entry: DeadlineEntry) -> Bool {
        entry.heapIndex >= 0 && entry.heapIndex < entries.count && entries[entry.heapIndex] === entry
    }

    /// Adds `entry`, which is in no heap, after every entry already here with the same deadline.
    mutating func insert(_ entry: DeadlineEntry) {
        entry.sequence = nextSequence
        nextSequence &+= 1
        entry.heapIndex = entries.count
        entries.append(entry)
        siftUp(entry.heapIndex)
    }

    /// Takes the entry at `index` out and drops its action, so that it holds on to nothing.
    mutating func remove(at index: Int) {
        let removed = entries[index]
        let last = entries.removeLast()
        if index < entries.count {
            entries[index] = last
            last.heapIndex = index
            if index > 0, Self.precedes(last, entries[(index - 1) / 2]) {
                siftUp(index)
            } else {
                siftDown(index)
            }
        }
        removed.heapIndex = DeadlineEntry.notScheduled
        removed.action = nil
    }

    private static func precedes(_ first: DeadlineEntry, _ second: DeadlineEntry) -> Bool {
        first.deadline < second.deadline || (first.deadline == second.deadline && first.sequence < second.sequence)
    }

    private mutating func siftUp(_ index: Int) {
        let entry = entries[index]
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entry, entries[parent]) else { break }
            entries[child] = entries[parent]
            entries[child].heapIndex = child
            child = parent
        }
        entries[child] = entry
        entry.heapIndex = child
    }

    private mutating func siftDown(_ index: Int) {
        let entry = entries[index]
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            let right = left + 1
            let earlier = right < entries.count && Self.precedes(entries[right], entries[left]) ? right : left
            guard Self.precedes(entries[earlier], entry) else { break }
            entries[parent] = entries[earlier]
            entries[parent].heapIndex = parent
            parent = earlier
        }
        entries[parent] = entry
        entry.heapIndex = parent
    }
}
