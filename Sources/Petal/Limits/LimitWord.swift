import CPetal

/// The word of a ``ConcurrencyLimit``: how many operations run and how many wait, moved only by
/// compare-and-swap, and each move a pure function of the word seen (nil: not this move).
///
/// ```
///   bits 32-63  waiting    operations in the queue (changed only with the queue's lock held)
///   bits  0-31  in flight  operations admitted and not yet finished
/// ```
///
/// The rule that keeps the fast paths lock-free: an operation is admitted, or a slot given back,
/// without the lock only while nothing waits. Once something waits, every slot that frees is
/// handed to the head of the queue under the lock (in flight unchanged, waiting one less), so
/// nothing waits while a slot is free: `waiting > 0` implies `in flight >= maximum`. A waiter is
/// counted by the same compare-and-swap that sees the limit full, so a slot given back on the
/// fast path at that moment makes the count fail and the operation is admitted instead: no
/// operation waits for a slot that nobody will hand over (`Tests/Model/petal_limit.pml`).
///
/// The maximum moves (``ConcurrencyLimit/setMaximum(_:)``), under the queue's lock. Raised, the
/// free slots go to the waiters at once (``granting(_:maximum:)``). Lowered, operations already
/// in flight above it finish, each giving its slot back rather than handing it over
/// (``shedding(_:maximum:)``) until in flight is down to the maximum; a lock-free admission that
/// read the maximum before it came down may still take a slot under the old one.
struct LimitWord {
    static let waitingShift: petal_word = 32
    static let fieldMask: petal_word = (1 << 32) - 1

    static func inFlight(_ word: petal_word) -> Int { Int(word & fieldMask) }
    static func waiting(_ word: petal_word) -> Int { Int(word >> waitingShift) }

    /// Admitted without the lock: nothing waits and a slot is free.
    static func admitting(_ word: petal_word, maximum: Int) -> petal_word? {
        waiting(word) == 0 && inFlight(word) < maximum ? word + 1 : nil
    }

    /// Counted as waiting (the caller holds the lock and queues the operation): the limit is full
    /// and the queue is not. Never while a slot is free: the operation is admitted then.
    static func queueing(_ word: petal_word, maximum: Int, queue: Int) -> petal_word? {
        inFlight(word) >= maximum && waiting(word) < queue ? word + (1 << waitingShift) : nil
    }

    /// A slot given back without the lock: nothing waits.
    static func releasing(_ word: petal_word) -> petal_word? {
        waiting(word) == 0 && inFlight(word) > 0 ? word - 1 : nil
    }

    /// A slot handed to the head of the queue (the caller holds the lock and dequeues it): in
    /// flight unchanged, one less waiting.
    static func handingOver(_ word: petal_word) -> petal_word? {
        waiting(word) > 0 ? word - (1 << waitingShift) : nil
    }

    /// A slot given back under the lock while something waits, because the maximum came down
    /// below in flight: the waiters keep waiting for a slot under the new maximum.
    static func shedding(_ word: petal_word, maximum: Int) -> petal_word? {
        waiting(word) > 0 && inFlight(word) > maximum ? word - 1 : nil
    }

    /// A free slot given to the head of the queue (the caller holds the lock and dequeues it),
    /// because the maximum went up: one more in flight, one less waiting.
    static func granting(_ word: petal_word, maximum: Int) -> petal_word? {
        waiting(word) > 0 && inFlight(word) < maximum ? word + 1 - (1 << waitingShift) : nil
    }

    /// A waiter leaves the queue unstarted (the caller holds the lock and unlinks it).
    static func leaving(_ word: petal_word) -> petal_word? {
        handingOver(word)
    }
}
