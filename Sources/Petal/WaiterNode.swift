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
        node.withUnsafeMutablePointerToHeader { $0.pointee.link.receiver = node }
        return node
    }

    /// The address the C list links; stable for the node's lifetime.
    @inlinable
    var nodePointer: UnsafeMutablePointer<petal_node> {
        withUnsafeMutablePointerToHeader { header in
            let offset =
                MemoryLayout<WaiterNodeHeader<Value>>.offset(of: \.link)!
                + MemoryLayout<WaiterLink>.offset(of: \.node)!
            return (UnsafeMutableRawPointer(header) + offset).assumingMemoryBound(to: petal_node.self)
        }
    }

    /// Removes the callback (it runs once) so what it captured is freed as soon as it has run.
    @inlinable
    func takeCallback() -> Callback<Value> {
        withUnsafeMutablePointerToHeader { $0.pointee.callback.take()! }
    }

    @inlinable
    func receiveOutcome(of source: UnsafeMutableRawPointer, kind: OutcomeKind) {
        let storage = Unmanaged<FutureStorage<Value>>.fromOpaque(source).takeUnretainedValue()
        takeCallback().invoke(with: storage.outcome(kind: kind))
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
