import CPetal

/// Anything that can sit in a cell's waiter list: an extra subscriber's node today, and the
/// derived future of a chaining step (which is its own node, so a step allocates nothing else).
///
/// The publisher passes its storage unretained as a raw pointer because the receiver, not the
/// publisher, knows the storage's concrete type: a receiver linked into a
/// `FutureStorage<Input>` always reads it back as exactly that type.
@usableFromInline
protocol OutcomeReceiver: AnyObject {
    /// Runs once, on the publishing thread (inside its trampoline frame), after `source`
    /// resolved with `kind`.
    func receiveOutcome(of source: UnsafeMutableRawPointer, kind: OutcomeKind)
}

/// The first field of every receiver's header: the intrusive node the C list links, and the
/// receiver it belongs to. The node comes first (offset 0, asserted in debug builds) so a
/// `petal_node *` is also a `WaiterLink *`.
@usableFromInline
struct WaiterLink {
    @usableFromInline
    var node: petal_node
    /// Unowned: the receiver's header lives inside the receiver itself; the list's ownership is
    /// the +1 retain taken when the node is pushed, released after the receiver has run.
    @usableFromInline
    unowned(unsafe) var receiver: (any OutcomeReceiver)?

    @inlinable
    init() {
        node = petal_node()
        receiver = nil
    }
}
