import CPetal

/// A subscriber after the first (the first uses the future's inline slot): the C list node and
/// the callback, in one plain heap block.
///
/// Not a Swift object: the list owns each node exclusively (pushed once, taken once by the
/// publisher, freed right after its callback is moved out), so reference counting, a deinit and
/// class metadata would be pure cost. Measured on the hot-promise drain: an object per
/// subscriber spent most of the drain in object teardown.
@usableFromInline
struct CallbackNode<Value> {
    /// First, so a `petal_node *` taken from the list is also a `CallbackNode *` (asserted).
    @usableFromInline
    var node: petal_node
    @usableFromInline
    var callback: Callback<Value>

    @inlinable
    init(callback: Callback<Value>) {
        node = petal_node()
        self.callback = callback
    }

    /// A new node holding `callback`, ready to push.
    @inlinable
    static func make(_ callback: Callback<Value>) -> UnsafeMutablePointer<CallbackNode<Value>> {
        assert(MemoryLayout<CallbackNode<Value>>.offset(of: \.node) == 0)
        let node = PlainAllocation.allocate(CallbackNode<Value>.self)
        node.initialize(to: CallbackNode(callback: callback))
        return node
    }

    /// Frees a node taken from a list and returns its callback.
    @inlinable
    static func take(_ node: UnsafeMutablePointer<petal_node>) -> Callback<Value> {
        let owner = UnsafeMutableRawPointer(node).assumingMemoryBound(to: CallbackNode<Value>.self)
        let callback = owner.move().callback
        PlainAllocation.deallocate(owner)
        return callback
    }
}
