import CPetal

/// A collection of ``Cancellable`` items (jobs, your own types) to cancel together, for
/// example when the screen or request that wanted their work goes away.
///
/// ```swift
/// let pool = CancellationPool()
/// let avatar = Future.start(running: Download(), with: url, on: .global(), pool: pool)
///     .then(Resize(to: 64), on: .global(), pool: pool)
/// // the screen closes:
/// pool.drain()
/// ```
///
/// ## What the pool holds
///
/// Items are held **weakly**: the pool never keeps a finished job alive, and entries whose item
/// is gone are pruned as the pool is used, so a long-lived pool fed at a high rate holds about
/// as many entries as it has live items (at most twice as many, plus a small constant).
///
/// ## Threads and drains
///
/// - ``add(_:)`` is lock-free: one compare-and-swap pushes an entry.
/// - ``drain()`` takes every entry the pool holds at that moment, at once, and calls
///   ``Cancellable/attemptCancel()`` on each live one, on the draining thread, in the order they
///   were added, before it returns. It holds no lock while it does, so an item may add to the
///   pool, or drain it, from inside `attemptCancel`.
/// - **An item added while a drain is running, or after it, is not cancelled by that drain: it
///   stays in the pool for the next one.** This includes items added from inside an
///   `attemptCancel` the drain called. So a drain always finishes, even if items add themselves
///   back, and nothing is lost: every item is either cancelled by a drain that began after it
///   was added, or still in the pool.
/// - Concurrent drains split the entries between them; each item is asked once.
///
/// Pruning and draining take a short internal lock that never covers your code (only the walk
/// over the pool's own entries), so they never deadlock with your items. The head's moves (adds
/// without the lock, a drain and a prune under it) are checked by
/// `Tests/Model/petal_cancellation_pool.pml`: every entry added is asked by one drain, pruned
/// once its item is gone, or still in the pool.
public final class CancellationPool: @unchecked Sendable {
    // @unchecked: `head` is only touched through C atomics (it holds a retained Entry). The
    // `next` links of entries reachable from the head are only rewired by the pruner, under
    // `maintenance`; a drainer takes the whole list under the same lock, after which no other
    // thread can reach it, and walks it alone. An adder writes only its own entry's `next`,
    // before publishing it. `pruneThreshold` and `entryCount` are C atomics.

    /// One added item. `next` is a retained pointer to the next older entry (0 for none),
    /// owned by this entry: an adder never dereferences the head it links to (a drain may free
    /// it meanwhile), it only moves the head word's reference into `next`.
    fileprivate final class Entry {
        weak var item: (any Cancellable)?
        var next: petal_word = 0

        init(_ item: any Cancellable) {
            self.item = item
        }

        /// Detaches and returns the next entry, with the reference this entry held.
        func takeNext() -> Entry? {
            defer { next = 0 }
            return CancellationPool.entry(next)?.takeRetainedValue()
        }

        /// The next entry, borrowed.
        var peekNext: Entry? { CancellationPool.entry(next)?.takeUnretainedValue() }
    }

    /// The newest entry, as a retained pointer (0 when empty).
    private let head: UnsafeMutablePointer<petal_atomic_word>
    /// Entries in the list, approximately (exact when no add races a prune or drain).
    private let entryCount: UnsafeMutablePointer<petal_atomic_word>
    /// The entry count at which the next add prunes.
    private let pruneThreshold: UnsafeMutablePointer<petal_atomic_word>
    /// Serialises pruning and draining with each other (never adds, never user code). It
    /// guards a count of maintenance passes rather than `Void`: ThreadSanitizer places a
    /// zero-sized guarded value at the lock object's own address and reports the unlocked read
    /// of the mutex pointer as a race with it.
    private let maintenance = PosixLock<UInt>(0)

    /// The fewest entries worth pruning.
    private static let minimumThreshold: petal_word = 64

    /// Creates an empty pool.
    public init() {
        head = .allocate(capacity: 1)
        head.initialize(to: petal_atomic_word(value: 0))
        entryCount = .allocate(capacity: 1)
        entryCount.initialize(to: petal_atomic_word(value: 0))
        pruneThreshold = .allocate(capacity: 1)
        pruneThreshold.initialize(to: petal_atomic_word(value: Self.minimumThreshold))
    }

    deinit {
        // Released iteratively: a long list must not recurse through `next`.
        var next = Self.entry(petal_atomic_word_load(head))?.takeRetainedValue()
        while let entry = next { next = entry.takeNext() }
        for word in [head, entryCount, pruneThreshold] {
            word.deinitialize(count: 1)
            word.deallocate()
        }
    }

    fileprivate static func entry(_ word: petal_word) -> Unmanaged<Entry>? {
        guard let pointer = UnsafeRawPointer(bitPattern: word) else { return nil }
        return Unmanaged.fromOpaque(pointer)
    }

    /// Adds `delta` (negative to take away) to a counter word and returns the sum: one locked
    /// add, not a compare-and-swap loop (the word is a count, never compared).
    private static func add(_ delta: Int, to word: UnsafeMutablePointer<petal_atomic_word>) -> petal_word {
        petal_atomic_word_add(word, petal_word(delta)) &+ petal_word(delta)
    }

    /// Adds `item`, to be asked to cancel by the next ``drain()``. Lock-free; safe from any
    /// thread, including from inside an item's `attemptCancel` during a drain (the item then
    /// waits for the next drain). The pool holds `item` weakly.
    public func add(_ item: any Cancellable) {
        let entry = Unmanaged.passRetained(Entry(item))
        let word = petal_word(bitPattern: entry.toOpaque())
        var seen = petal_atomic_word_load(head)
        while true {
            // The entry is ours until the CAS publishes it; on success the head word's
            // reference to the old head becomes the entry's `next`.
            entry._withUnsafeGuaranteedRef { $0.next = seen }
            // FULL: the entry's contents happen before any drainer that takes it (acquire).
            if petal_atomic_word_exchange(head, &seen, word) != 0 { break }
        }
        if Self.add(1, to: entryCount) >= petal_atomic_word_load(pruneThreshold) { prune() }
    }

    /// Adds every item of `items`, as ``add(_:)`` does, in order.
    public func add<Items: Sequence>(contentsOf items: Items) where Items.Element == any Cancellable {
        for item in items { add(item) }
    }

    /// Asks every live item in the pool to cancel, and empties the pool.
    ///
    /// Takes the pool's entries at once, then calls ``Cancellable/attemptCancel()`` on each item
    /// still alive, on this thread, oldest first, before returning. Items added during the drain
    /// (even by the items it cancels) or after it stay for the next drain.
    public func drain() {
        let taken: Entry? = maintenance.withLock { passes in
            passes &+= 1
            // With the lock: no prune is rewiring the links we are about to walk.
            var seen = petal_atomic_word_load(head)
            while petal_atomic_word_exchange(head, &seen, 0) == 0 {}
            return Self.entry(seen)?.takeRetainedValue()
        }
        // The list is ours alone now: reverse it (oldest first), then ask, with no lock held.
        var ordered: [any Cancellable] = []
        var next = taken
        var count = 0
        while let entry = next {
            next = entry.takeNext()  // releasing iteratively, not recursively
            count += 1
            if let item = entry.item { ordered.append(item) }
        }
        _ = Self.add(-count, to: entryCount)
        for item in ordered.reversed() { item.attemptCancel() }
    }

    /// Unlinks entries whose item is gone, behind the head (only adds touch the head). Waits for
    /// a drain or another prune that holds the lock: each holds it for a walk over the pool's own
    /// entries at most, never while an item runs.
    private func prune() {
        var survivors = 0
        var removed = 0
        maintenance.withLock { passes in
            passes &+= 1
            guard let first = Self.entry(petal_atomic_word_load(head))?.takeUnretainedValue() else { return }
            survivors = 1
            var previous = first
            while let entry = previous.peekNext {
                if entry.item == nil {
                    // `previous` takes over the dead entry's link, then lets the entry go.
                    let dead = Self.entry(previous.next).unsafelyUnwrapped
                    previous.next = entry.next
                    entry.next = 0
                    dead.release()
                    removed += 1
                } else {
                    previous = entry
                    survivors += 1
                }
            }
        }
        _ = Self.add(-removed, to: entryCount)
        // Prune again once the list has doubled: amortised O(1) per add. A store (RELEASE): a
        // threshold, read as a hint; two prunes racing here leave either's.
        petal_atomic_word_store(pruneThreshold, max(Self.minimumThreshold, petal_word(survivors * 2)))
    }

    /// How many entries the pool stores, live or not yet pruned, for tests.
    package var storedEntryCount: Int {
        maintenance.withLock { _ in
            var count = 0
            var next = Self.entry(petal_atomic_word_load(head))?.takeUnretainedValue()
            while let entry = next {
                count += 1
                next = entry.peekNext
            }
            return count
        }
    }
}
