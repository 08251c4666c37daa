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
        node.field(\.link, as: WaiterLink.self).pointee.receiver = node
        return node
    }

    /// The address of a header field, reached on its own (see `FutureStorage.field`).
    @inlinable
    func field<Field>(_ path: KeyPath<WaiterNodeHeader<Value>, Field>, as _: Field.Type) -> UnsafeMutablePointer<Field>
    {
        withUnsafeMutablePointerToHeader { header in
            (UnsafeMutableRawPointer(header) + MemoryLayout<WaiterNodeHeader<Value>>.offset(of: path)!)
                .assumingMemoryBound(to: Field.self)
        }
    }

    /// The address the C list links; stable for the node's lifetime.
    @inlinable
    var nodePointer: UnsafeMutablePointer<petal_node> {
        field(\.link.node, as: petal_node.self)
    }

    /// Removes the callback (it runs once) so what it captured is freed as soon as it has run.
    @inlinable
    func takeCallback() -> Callback<Value> {
        field(\.callback, as: Callback<Value>?.self).pointee.take().unsafelyUnwrapped
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
