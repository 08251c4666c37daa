import CPetal

/// One registered answer to a cancellation request, a node of a ``CancellationRecord``'s list.
///
/// Why a class per kind of answer rather than a node holding a closure: the answers Petal
/// registers itself (a chained future's vote on its upstream, a promise's cancel-then-stop) keep
/// what they need in the node, so registering one costs one allocation instead of two (the node
/// and the closure's context). A service registers one per backend call and one per combined
/// input, on every request. Their makers are `@inlinable` (see Design.md, *Inlining*): made in
/// code that is not specialised, a generic node's class metadata is looked up at run time, about
/// 330 instructions each.
///
/// Nodes cross threads as raw words in the record's list, out of the compiler's sight: each is
/// immutable once pushed, but for `next`, which only the thread that took the list touches.
@usableFromInline
class CancellationAction {
    /// The next older node (a retained pointer), 0 for none: set before the push, then only
    /// read and written by the thread that took the list.
    final var next: petal_word = 0

    @usableFromInline
    init() {}

    /// Answers the request. Runs at most once, on the thread that took the list.
    func run() {
        preconditionFailure("Petal: CancellationAction.run() is overridden by every kind of action")
    }
}

/// An action given as a closure: a user's cancellation handler, a job's or a retry's stop.
final class CancellationClosure: CancellationAction {
    private let action: CancellationRecord.Action

    init(_ action: @escaping CancellationRecord.Action) {
        self.action = action
    }

    override func run() { action() }
}

/// A dependent's vote on the future it was chained onto, registered with the dependent: a
/// request that reaches the dependent votes upstream.
@usableFromInline
final class UpstreamVote<Value>: CancellationAction {
    private let upstream: FutureStorage<Value>

    @usableFromInline
    init(on upstream: FutureStorage<Value>) {
        self.upstream = upstream
    }

    override func run() { upstream.receiveVote() }
}

/// An array combinator's votes on the inputs it counts as a dependent of, oldest input first:
/// one node for all of them.
@usableFromInline
final class UpstreamVotes<Value>: CancellationAction {
    private let upstreams: [FutureStorage<Value>]

    @usableFromInline
    init(on upstreams: [FutureStorage<Value>]) {
        self.upstreams = upstreams
    }

    override func run() {
        for upstream in upstreams { upstream.receiveVote() }
    }
}

/// A promise's answer to a request (``Promise/cancelWhenRequested(on:stopping:)``): cancels
/// its future, then stops the work (already bound to its execution context). One node, no
/// closure around the two.
@usableFromInline
final class ProducerStop<Value>: CancellationAction {
    private let storage: FutureStorage<Value>
    private let stop: @Sendable () -> Void

    @usableFromInline
    init(cancelling storage: FutureStorage<Value>, then stop: @escaping @Sendable () -> Void) {
        self.storage = storage
        self.stop = stop
    }

    override func run() {
        // Cancelling goes through the future's claim, which any thread may make; a resolution
        // that won it (the work answered first) leaves nothing to stop.
        if storage.stopsProducer() { stop() }
    }
}

/// The actions of a list closed for a request, oldest first, owned by the request's winner:
/// ``run()`` runs each once; any left unrun are released when this goes away.
///
/// No array: the list's own nodes are relinked oldest first, so taking and running the actions
/// allocates nothing.
struct CancellationActions: ~Copyable {
    /// The oldest node left to run (a retained pointer), 0 when none is.
    private var oldest: petal_word

    /// Takes ownership of a list whose head (the newest node) was swapped out of a record.
    init(takingNewestFirst head: petal_word) {
        var reversed: petal_word = 0
        var next = head
        while next > CancellationRecord.closedByResolution {
            let node = Self.node(at: next)
            next = node.next
            node.next = reversed
            reversed = petal_word(UInt(bitPattern: Unmanaged.passUnretained(node).toOpaque()))
        }
        oldest = reversed
    }

    /// Runs every action, oldest first, each node released once it has run.
    consuming func run() {
        while oldest != 0 {
            let node = Unmanaged<CancellationAction>.fromOpaque(Self.address(oldest)).takeRetainedValue()
            oldest = node.next
            node.run()
        }
    }

    deinit {
        Self.release(newestFirst: oldest)
    }

    /// Releases the nodes of a taken list unrun (a resolved future's, a freed record's).
    static func release(newestFirst head: petal_word) {
        var next = head
        while next > CancellationRecord.closedByResolution {
            let node = Unmanaged<CancellationAction>.fromOpaque(address(next)).takeRetainedValue()
            next = node.next
        }
    }

    /// The node at `word`, borrowed: the list holds it.
    private static func node(at word: petal_word) -> CancellationAction {
        Unmanaged<CancellationAction>.fromOpaque(address(word)).takeUnretainedValue()
    }

    private static func address(_ word: petal_word) -> UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: UInt(word)).unsafelyUnwrapped
    }
}
