import Synchronization

/// The bare lock-free design (`BarePromise`), generic over its value: a Treiber list of
/// callback nodes on an `Atomic` head, a claim flag, and the value. Built as a package
/// dependency with its hot paths `@inlinable` is (see `GenericMutexPromise`); `BarePromise` is
/// the floor of the same design.
///
/// What it leaves out, as `BarePromise` does: failure and cancellation, a dropped promise
/// cancelling its future, stack safety, order for callbacks subscribed during delivery.
public final class GenericBarePromise<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is written once, by the claim's winner, before the acquiring-and-
    // releasing exchange that installs the sentinel; it is read only after a load that saw the
    // sentinel with acquiring ordering.

    /// A waiting callback: the list link and the closure, in one plain heap block.
    @usableFromInline
    struct Node {
        @usableFromInline var next: UInt
        @usableFromInline var callback: @Sendable (Value) -> Void
        @inlinable init(next: UInt, callback: @escaping @Sendable (Value) -> Void) {
            self.next = next
            self.callback = callback
        }
    }

    /// The resolved sentinel. Nodes come from the allocator, so they never sit at address 1.
    @inlinable static var resolved: UInt { 1 }

    @usableFromInline let head = Atomic<UInt>(0)
    @usableFromInline let claimed = Atomic<Bool>(false)
    @usableFromInline var value: Value?

    @inlinable public init() {}

    /// Calls `callback` with the value once fulfilled: at once, on this thread, if it already is.
    @inlinable
    public func subscribe(_ callback: @escaping @Sendable (Value) -> Void) {
        var current = head.load(ordering: .acquiring)
        if current == Self.resolved { return callback(value.unsafelyUnwrapped) }
        let node = UnsafeMutablePointer<Node>.allocate(capacity: 1)
        node.initialize(to: Node(next: current, callback: callback))
        while true {
            // Releasing: the node's contents happen before the fulfiller takes the list.
            let (exchanged, seen) = head.compareExchange(
                expected: current, desired: UInt(bitPattern: node), successOrdering: .releasing,
                failureOrdering: .acquiring)
            if exchanged { return }
            current = seen
            if current == Self.resolved {
                let callback = node.move().callback
                node.deallocate()
                return callback(value.unsafelyUnwrapped)
            }
            node.pointee.next = current
        }
    }

    /// Fulfils with `value` and runs the waiting callbacks oldest first; returns whether this
    /// call won.
    @inlinable
    @discardableResult
    public func fulfil(_ value: Value) -> Bool {
        // Relaxed: the claim publishes nothing; the exchange below does.
        guard !claimed.exchange(true, ordering: .relaxed) else { return false }
        self.value = value
        // Releasing publishes the value; acquiring takes the nodes' contents.
        var list = head.exchange(Self.resolved, ordering: .acquiringAndReleasing)
        var ordered: UInt = 0
        while list != 0 {
            let node = UnsafeMutablePointer<Node>(bitPattern: list).unsafelyUnwrapped
            list = node.pointee.next
            node.pointee.next = ordered
            ordered = UInt(bitPattern: node)
        }
        while let node = UnsafeMutablePointer<Node>(bitPattern: ordered) {
            ordered = node.pointee.next
            let callback = node.move().callback
            node.deallocate()
            callback(value)
        }
        return true
    }

    deinit {
        // Nodes of a promise never fulfilled.
        var list = head.load(ordering: .acquiring)
        while list != 0 && list != Self.resolved, let node = UnsafeMutablePointer<Node>(bitPattern: list) {
            list = node.pointee.next
            node.deinitialize(count: 1)
            node.deallocate()
        }
    }
}
