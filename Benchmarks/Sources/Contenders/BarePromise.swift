import CBenchSupport
import Synchronization

/// The limit: the smallest lock-free promise that still does the job, written to be as fast as
/// possible and promising nothing beyond it. Petal's guarantees are measured against it.
///
/// One final class holding an atomic head word, an atomic claim flag and the value. The head is
/// either the newest node of a Treiber list of `malloc`'d callback nodes (0 when empty) or the
/// resolved sentinel. Subscribing pushes a node with one compare-and-swap, or calls the callback
/// at once when the head is the sentinel; fulfilling wins the claim flag, stores the value, swaps
/// the sentinel in and runs the list oldest first.
///
/// What it leaves out, and Petal does not: values other than `Int`, failure and cancellation,
/// a dropped promise cancelling its future, stack safety for callbacks that resolve other
/// promises, order for callbacks subscribed while the list is being run, and an inline slot for
/// the first subscriber.
public final class BarePromise: @unchecked Sendable {
    // @unchecked: `value` is written once, by the claim's winner, before the acquiring-and-
    // releasing exchange that installs the sentinel; it is read only after a load that saw the
    // sentinel with acquiring ordering.

    /// The resolved sentinel. Nodes come from `malloc`, so they never sit at address 1.
    @usableFromInline static let resolved: UInt = 1

    @usableFromInline let head = Atomic<UInt>(0)
    @usableFromInline let claimed = Atomic<Bool>(false)
    @usableFromInline var value = 0

    /// A waiting callback: the list link and the closure, in one plain heap block.
    @usableFromInline
    struct Node {
        @usableFromInline var next: UInt
        @usableFromInline var callback: @Sendable (Int) -> Void

        @inlinable
        init(next: UInt, callback: @escaping @Sendable (Int) -> Void) {
            self.next = next
            self.callback = callback
        }
    }

    @inlinable
    public init() {}

    /// Calls `callback` with the value once fulfilled: at once, on this thread, if it already is.
    @inlinable
    public func subscribe(_ callback: @escaping @Sendable (Int) -> Void) {
        var current = head.load(ordering: .acquiring)
        if current == Self.resolved { return callback(value) }
        let node = UnsafeMutablePointer<Node>.allocate(capacity: 1)
        node.initialize(to: Node(next: current, callback: callback))
        let address = UInt(bitPattern: node)
        while true {
            // Releasing: the node's contents happen before the fulfiller takes the list.
            let (exchanged, seen) = head.compareExchange(
                expected: current, desired: address, successOrdering: .releasing, failureOrdering: .acquiring)
            if exchanged { return }
            current = seen
            if current == Self.resolved {
                let callback = node.move().callback
                node.deallocate()
                return callback(value)
            }
            node.pointee.next = current
        }
    }

    /// Fulfils with `value` and runs the waiting callbacks oldest first; returns whether this
    /// call won.
    @inlinable
    @discardableResult
    public func fulfil(_ value: Int) -> Bool {
        // Relaxed: the claim publishes nothing; the exchange below does.
        guard !claimed.exchange(true, ordering: .relaxed) else { return false }
        self.value = value
        // Releasing publishes the value; acquiring takes the nodes' contents.
        var list = head.exchange(Self.resolved, ordering: .acquiringAndReleasing)
        // Reverse the newest-first list into subscription order.
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

/// The bare lock-free promise as a contender.
public enum BareContender: Contender {
    public static let name = "bare lock-free"

    @inlinable
    public static func make() -> BarePromise { BarePromise() }

    @inlinable
    public static func subscribeCounting(_ handle: BarePromise) {
        handle.subscribe { _ in bench_count_add() }
    }

    @inlinable
    public static func subscribe(_ handle: BarePromise, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.subscribe(callback)
    }

    @inlinable
    public static func subscribeCapturing(_ handle: BarePromise, _ subscriber: Subscriber) {
        handle.subscribe { subscriber.receive($0) }
    }

    @inlinable
    public static func subscribeCapturingThree(
        _ handle: BarePromise, _ subscriber: Subscriber, index: Int, tag: RequestTag
    ) {
        handle.subscribe { subscriber.receive($0, index: index, tag: tag) }
    }

    @inlinable
    public static func subscribeForwarding(_ handle: BarePromise, to next: BarePromise) {
        handle.subscribe { next.fulfil($0) }
    }

    @inlinable
    @discardableResult
    public static func fulfil(_ handle: BarePromise, with value: Int) -> Bool {
        handle.fulfil(value)
    }
}
