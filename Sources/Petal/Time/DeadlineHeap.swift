/// The pending deadlines of a ``DeadlineScheduler``, earliest first: a binary min-heap on
/// (deadline, order of scheduling), so that equal deadlines run first come, first served.
///
/// Every entry remembers its index here (`DeadlineEntry.heapIndex`), so that an entry whose
/// future resolved first is taken out in O(log n) rather than found by a walk. Not thread-safe:
/// the scheduler keeps it under its lock.
struct DeadlineHeap {
    /// The entries, `entries[0]` due first, each retained once by ``insert(_:)`` until
    /// ``remove(at:)`` or ``releaseAll()`` releases it. Unmanaged, so that moving an entry within
    /// the heap, as an insertion and a removal each do a few times, costs no retain and release:
    /// two atomic operations apiece, on every timeout, hedge and retry (callgrind: 6 a hedged
    /// call).
    private var entries: [Unmanaged<DeadlineEntry>] = []
    /// The order of the next entry scheduled, for ties between equal deadlines.
    private var nextSequence: UInt64 = 0

    /// The entry due first, if any.
    var first: DeadlineEntry? { entries.first?.takeUnretainedValue() }

    /// How many entries wait.
    var count: Int { entries.count }

    /// Whether `entry` sits where it remembers sitting.
    func holds(_ entry: DeadlineEntry) -> Bool {
        entry.heapIndex >= 0 && entry.heapIndex < entries.count
            && entries[entry.heapIndex].toOpaque() == Unmanaged.passUnretained(entry).toOpaque()
    }

    /// Adds `entry`, which is in no heap, after every entry already here with the same deadline.
    mutating func insert(_ entry: DeadlineEntry) {
        entry.sequence = nextSequence
        nextSequence &+= 1
        entry.heapIndex = entries.count
        entries.append(.passRetained(entry))
        siftUp(entry.heapIndex)
    }

    /// Takes the entry at `index` out and drops its action, so that it holds on to nothing.
    mutating func remove(at index: Int) {
        let removed = entries[index]
        let last = entries.removeLast()
        if index < entries.count {
            entries[index] = last
            Self.place(last, at: index)
            if index > 0, Self.precedes(last, entries[(index - 1) / 2]) {
                siftUp(index)
            } else {
                siftDown(index)
            }
        }
        removed._withUnsafeGuaranteedRef { entry in
            entry.heapIndex = DeadlineEntry.notScheduled
            entry.action = nil
        }
        removed.release()
    }

    /// Releases every entry, which never runs: the scheduler is going away.
    mutating func releaseAll() {
        for entry in entries { entry.release() }
        entries.removeAll()
    }

    private static func precedes(_ first: Unmanaged<DeadlineEntry>, _ second: Unmanaged<DeadlineEntry>) -> Bool {
        first._withUnsafeGuaranteedRef { first in
            second._withUnsafeGuaranteedRef { second in
                first.deadline < second.deadline
                    || (first.deadline == second.deadline && first.sequence < second.sequence)
            }
        }
    }

    /// Records in `entry` that it now sits at `index`.
    private static func place(_ entry: Unmanaged<DeadlineEntry>, at index: Int) {
        entry._withUnsafeGuaranteedRef { $0.heapIndex = index }
    }

    private mutating func siftUp(_ index: Int) {
        let entry = entries[index]
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entry, entries[parent]) else { break }
            entries[child] = entries[parent]
            Self.place(entries[child], at: child)
            child = parent
        }
        entries[child] = entry
        Self.place(entry, at: child)
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
            Self.place(entries[parent], at: parent)
            parent = earlier
        }
        entries[parent] = entry
        Self.place(entry, at: parent)
    }
}
