/// An operation waiting for a slot of a ``ConcurrencyLimit``: a node of its FIFO queue.
final class LimitWaiter: @unchecked Sendable {
    // @unchecked: the links are touched only with the queue's lock held; `admit` is immutable.
    /// Starts the operation (it has its slot).
    let admit: @Sendable () -> Void
    var next: LimitWaiter?
    /// Unowned: the node before holds this one (or the queue's head does).
    unowned(unsafe) var previous: LimitWaiter?
    var isQueued = false

    init(admit: @escaping @Sendable () -> Void) {
        self.admit = admit
    }
}

/// The waiting operations of a ``ConcurrencyLimit``, oldest first: a doubly linked list, so that
/// one that leaves is unlinked in constant time.
struct LimitQueue {
    private var head: LimitWaiter?
    private unowned(unsafe) var tail: LimitWaiter?

    mutating func append(_ waiter: LimitWaiter) {
        waiter.isQueued = true
        waiter.previous = tail
        if let tail { tail.next = waiter } else { head = waiter }
        tail = waiter
    }

    /// The oldest waiter, taken out; the queue must not be empty.
    mutating func removeFirst() -> LimitWaiter {
        let first = head.unsafelyUnwrapped
        _ = remove(first)
        return first
    }

    /// Takes `waiter` out; `false` if it was not queued.
    mutating func remove(_ waiter: LimitWaiter) -> Bool {
        guard waiter.isQueued else { return false }
        waiter.isQueued = false
        if let previous = waiter.previous { previous.next = waiter.next } else { head = waiter.next }
        if let next = waiter.next { next.previous = waiter.previous } else { tail = waiter.previous }
        waiter.next = nil
        waiter.previous = nil
        return true
    }
}
