/// An operation waiting for a slot of a ``ConcurrencyLimit``: a node of its FIFO queue.
final class LimitWaiter: @unchecked Sendable {
    // @unchecked: the links are touched only with the queue's lock held; `admit` is immutable;
    // `expiry` is set before the waiter is queued, and then touched only by the one thread that
    // took the waiter out of the queue (or found it admitted at once).
    /// Starts the operation (it has its slot).
    let admit: @Sendable () -> Void
    var next: LimitWaiter?
    /// Unowned: the node before holds this one (or the queue's head does).
    unowned(unsafe) var previous: LimitWaiter?
    var isQueued = false
    /// The timer that takes the waiter out at its request's deadline; `nil` without one.
    var expiry: LimitExpiry?

    init(admit: @escaping @Sendable () -> Void) {
        self.admit = admit
    }

    /// Starts the operation, which has its slot, once its deadline's timer is taken out.
    func start() {
        disarm()
        admit()
    }

    /// Takes the deadline's timer out, if any: its action holds this waiter, so it must not
    /// stay in the timer's heap once the waiter left the queue.
    func disarm() {
        guard let expiry else { return }
        self.expiry = nil
        expiry.cancel()
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
