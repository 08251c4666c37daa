import CPetal

/// A subscriber after the first: the first uses the future's inline slot, every later one costs
/// this node (one allocation) holding its callback.
@usableFromInline
final class WaiterNode<Value>: ManagedBuffer<WaiterNodeHeader<Value>, Void>, OutcomeReceiver {
    /// A node holding `callback`, ready to push.
    @inlinable
    static func make(_ callback: Callback<Value>) -> WaiterNode<Value> {
        let node = unsafeDowncast(
            create(minimumCapacity: 0) { _ in WaiterNodeHeader(callback: callback) },
            to: WaiterNode<Value>.self
        )
        assert(MemoryLayout<WaiterNodeHeader<Value>>.offset(of: \.link) == 0)
        assert(MemoryLayout<WaiterNodeHeader<Value>>.offset(of: \.callback) == callbackOffset)
        assert(MemoryLayout<WaiterLink>.offset(of: \.node) == 0)
        node.link.pointee.receiver = node
        return node
    }

    // Fields are reached through their own pointers at offsets computed from the layout rule,
    // for the reasons given in FutureStorage; the link (node first) opens the header.

    @inlinable
    static var callbackOffset: Int {
        MemoryLayout<WaiterLink>.size.roundedUp(to: MemoryLayout<Callback<Value>?>.alignment)
    }

    /// The link, first in the header.
    @inlinable
    var link: UnsafeMutablePointer<WaiterLink> {
        withUnsafeMutablePointerToHeader { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WaiterLink.self) }
    }

    /// The address the C list links (the link's first field); stable for the node's lifetime.
    @inlinable
    var nodePointer: UnsafeMutablePointer<petal_node> {
        UnsafeMutableRawPointer(link).assumingMemoryBound(to: petal_node.self)
    }

    /// The callback, until it is taken.
    @inlinable
    var callback: UnsafeMutablePointer<Callback<Value>?> {
        withUnsafeMutablePointerToHeader {
            (UnsafeMutableRawPointer($0) + Self.callbackOffset).assumingMemoryBound(to: Callback<Value>?.self)
        }
    }

    /// Removes the callback (it runs once) so what it captured is freed as soon as it has run.
    @inlinable
    func takeCallback() -> Callback<Value> {
        callback.pointee.take().unsafelyUnwrapped
    }

    @inlinable
    func receiveOutcome(of source: UnsafeMutableRawPointer, kind: OutcomeKind) {
        Unmanaged<FutureStorage<Value>>.fromOpaque(source)._withUnsafeGuaranteedRef { storage in
            takeCallback().invoke(from: storage, kind: kind)
        }
    }
}

@usableFromInline
struct WaiterNodeHeader<Value> {
    @usableFromInline
    var link: WaiterLink
    @usableFromInline
    var callback: Callback<Value>?

    @inlinable
    init(callback: Callback<Value>) {
        link = WaiterLink()
        self.callback = callback
    }
}
