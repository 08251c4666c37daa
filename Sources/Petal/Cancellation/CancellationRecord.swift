import CPetal

/// Everything upstream cancellation keeps for one future: whether requests can travel from it
/// to a producer, whether one arrived, the votes of its counted dependents, the actions that
/// answer a request, and (for a job's future) the job's state.
///
/// Why a record of its own: almost no future is ever asked to cancel, so a future keeps one
/// pointer-sized slot in its header, 0 until the first user of cancellation installs a record
/// there with one compare-and-swap; everyone else pays one load of that 0 when the future
/// resolves, is chained onto or is freed. The record lives as long as its future (the future's
/// deinit releases it), so no table, lock or address is shared between futures.
///
/// The request word, moved only by compare-and-swap:
///
/// ```
///   bit 63     PROPAGATES  requests can reach a producer from here: the future belongs to a
///                          job, its promise's owner registered a handler, or it is chained
///                          onto such a future; its counted dependents link to it
///   bit 62     REQUESTED   a request reached the future (once; later ones do nothing)
///   bits 31-61 votes       counted dependents that have asked
///   bits 0-30  dependents  futures chained onto this one while it propagated, and tasks
///                          awaiting it with `cancellingUpstream: true`
/// ```
///
/// The action list is a stack of ``CancellationAction`` nodes (retained pointers) pushed by
/// compare-and-swap, closed exactly once by exchanging it for a sentinel: ``closedByRequest``
/// by the request's winner, who runs what it took (oldest first); ``closedByResolution`` when
/// the future resolves, which releases what it took unrun. An action pushed after the close
/// sees the sentinel and runs at once (request) or is dropped (resolution).
///
/// A promise's own stop (``Promise/cancelWhenRequested(on:stopping:)``, the one action almost
/// every producer registers) is the list's action zero, kept in the record rather than in a node:
/// one allocation less per promise. It is set before the record is published and belongs, like
/// the nodes, to whoever closes the list: run first by a request's winner, released unrun by
/// the resolution.
///
/// Shared between threads although `ManagedBuffer` cannot be `Sendable`: its words are reached
/// only through C atomics, and an action (node or action zero) is immutable once published until
/// the one thread that closed the list takes it.
@usableFromInline
final class CancellationRecord: ManagedBuffer<CancellationRecord.Words, Void> {
    /// The record's atomic words.
    @usableFromInline
    struct Words {
        /// The request word (see the type's documentation).
        var request: petal_atomic_word
        /// The newest ``CancellationAction`` (a retained pointer), 0 when empty, or a sentinel.
        var actions: petal_atomic_word
        /// The state of the job whose future this is (a `JobState`), unused otherwise: a job's
        /// future always has a record, so the job keeps its state here rather than in an
        /// allocation of its own.
        var producerState: petal_atomic_word
        /// Action zero: the stop of the promise whose future this is, if it registered it
        /// before anything else made a record; or, for a chained future (which has no promise),
        /// its vote on the future it depends on, if it was linked before anything else made a
        /// record. Taken by whoever closes the list.
        var producerStop: Action?
    }

    /// An action that answers a request.
    @usableFromInline
    typealias Action = @Sendable () -> Void

    static let propagates: petal_word = 1 << 63
    static let requested: petal_word = 1 << 62
    static let countWidth: petal_word = 31
    static let countMask: petal_word = (1 << countWidth) - 1

    /// The list's sentinels: never node addresses (nodes are 16-byte aligned).
    static let closedByRequest: petal_word = 1
    static let closedByResolution: petal_word = 2

    /// Records alive now (``PetalDiagnostics/openCancellationRecordCount``): one striped add
    /// when a record is made and one when it is freed, never on a future without one.
    static let openCount = StripedCounter()

    /// A record with an empty request word and no actions.
    static func make(
        request: petal_word = 0, producerState: petal_word = 0, producerStop: Action? = nil
    ) -> CancellationRecord {
        openCount.add(1)
        return unsafeDowncast(
            create(minimumCapacity: 0) { _ in
                Words(
                    request: petal_atomic_word(value: request), actions: petal_atomic_word(value: 0),
                    producerState: petal_atomic_word(value: producerState), producerStop: producerStop)
            },
            to: CancellationRecord.self
        )
    }

    deinit {
        Self.openCount.add(-1)
        // Actions of a future freed before it resolved or was asked: nobody can ask it now.
        // The deinit is ordered after every other user of the record by the reference count.
        let head = petal_atomic_word_load(actionsWord)
        if head > Self.closedByResolution { CancellationActions.release(newestFirst: head) }
    }

    // MARK: Words

    /// The request word.
    var requestWord: UnsafeMutablePointer<petal_atomic_word> {
        withUnsafeMutablePointerToHeader { UnsafeMutableRawPointer($0) }
            .assumingMemoryBound(to: petal_atomic_word.self)
    }

    /// The action list's head.
    var actionsWord: UnsafeMutablePointer<petal_atomic_word> {
        requestWord + 1
    }

    /// The producer's state word (a job's `JobState`).
    var producerStateWord: UnsafeMutablePointer<petal_atomic_word> {
        requestWord + 2
    }

    /// Debug builds: the words sit where the pointers above say.
    static func checkLayout() {
        assert(MemoryLayout<Words>.offset(of: \.actions) == MemoryLayout<petal_atomic_word>.stride)
        assert(MemoryLayout<Words>.offset(of: \.producerState) == 2 * MemoryLayout<petal_atomic_word>.stride)
    }

    /// Applies `change` to the request word until a compare-and-swap succeeds or `change`
    /// returns `nil` (nothing to do). Returns the word written, or `nil`.
    @discardableResult
    func updateRequest(_ change: (petal_word) -> petal_word?) -> petal_word? {
        var seen = petal_atomic_word_load(requestWord)
        while true {
            guard let next = change(seen) else { return nil }
            // FULL (see petal_atomics.h): a request's winner sees everything its voters wrote before.
            if petal_atomic_word_exchange(requestWord, &seen, next) != 0 { return next }
        }
    }

    /// The request word's dependents field.
    static func dependents(_ word: petal_word) -> petal_word { word & countMask }

    /// The request word's votes field.
    static func votes(_ word: petal_word) -> petal_word { (word >> countWidth) & countMask }

    // MARK: The request word's moves: each the word it makes of `word`, or nil for no change

    /// Requests can travel from here from now on.
    static func propagating(_ word: petal_word) -> petal_word? {
        word & propagates != 0 ? nil : word | propagates
    }

    /// One more counted dependent; none once the count is saturated (its vote could never be
    /// counted) or a request arrived.
    static func addingDependent(_ word: petal_word) -> petal_word? {
        guard dependents(word) < countMask, word & requested == 0 else { return nil }
        return word + 1
    }

    /// A direct request: unconditional, once.
    static func requesting(_ word: petal_word) -> petal_word? {
        word & requested != 0 ? nil : word | requested
    }

    /// One counted dependent's vote; the vote that reaches the count of dependents requests.
    /// No change once requested, when saturated (votes can no longer be compared with the real
    /// number of dependents), or for a vote beyond the count.
    static func voting(_ word: petal_word) -> petal_word? {
        guard word & requested == 0 else { return nil }
        let count = dependents(word)
        let votes = votes(word) + 1
        guard count < countMask, votes <= count else { return nil }
        var next = word & ~(countMask << countWidth)
        next |= votes << countWidth
        if votes == count { next |= requested }
        return next
    }

    // MARK: The start gate

    /// The producer state of a `Future.startFollowing(on:executing:)` future, a gate between a request
    /// and the closure, in a word no job uses (job states are small numbers, these all have the
    /// top bit):
    ///
    /// ```
    ///   PENDING ── the closure begins (openStartGate) ──► RUNNING ── it returned a future
    ///      │                                                │        (followStartGate) ──►
    ///      └ a request (closeStartGate) ──► CLOSED          ├─► PASSING    that future passes requests on
    ///                                                       └─► FOLLOWING  it cannot be asked
    /// ```
    ///
    /// A request cancels the future if it finds PENDING (and closes it: the closure never
    /// runs), FOLLOWING or CLOSED; it leaves RUNNING and PASSING to the closure's future, which
    /// the request's vote reaches. The closure's side checks for a request after it leaves
    /// RUNNING: both moves are FULL compare-and-swaps followed by a load of the other's word, so
    /// a request that found RUNNING is seen there, and the future is cancelled by one of them.
    static let startGate: petal_word = 1 << 63
    static let startRunning: petal_word = startGate | 1
    static let startPassing: petal_word = startGate | 2
    static let startFollowing: petal_word = startGate | 3
    static let startClosed: petal_word = startGate | 4

    /// A request's side of the gate: whether the request cancels the future. `true` without a
    /// gate (a promise's future).
    func closeStartGate() -> Bool {
        var seen = petal_atomic_word_load(producerStateWord)
        while seen == Self.startGate {
            // FULL: orders this close against the closure's open (one of the two wins).
            if petal_atomic_word_exchange(producerStateWord, &seen, Self.startClosed) != 0 { return true }
        }
        return seen != Self.startRunning && seen != Self.startPassing
    }

    /// The closure's side: whether it may begin (`false` once a request closed the gate).
    func openStartGate() -> Bool {
        var seen = Self.startGate
        // FULL: see closeStartGate.
        return petal_atomic_word_exchange(producerStateWord, &seen, Self.startRunning) != 0
    }

    /// The closure returned a future that does (`passing`) or does not pass requests on.
    /// Returns whether a request arrived meanwhile and, finding the closure running, left the
    /// future for this side to cancel (when the returned future cannot be asked).
    func followStartGate(passing: Bool) -> Bool {
        var seen = Self.startRunning
        // FULL, then the load of the request word: a request publishes REQUESTED with a FULL
        // compare-and-swap before it loads this word, so one of the two sees the other.
        _ = petal_atomic_word_exchange(producerStateWord, &seen, passing ? Self.startPassing : Self.startFollowing)
        return !passing && petal_atomic_word_load(requestWord) & Self.requested != 0
    }

    // MARK: A chained step's pass

    /// A chained future's side of the producer-state word, which no job or gate uses there: 0,
    /// then ``startPassing`` once its step's closure returned a future that requests pass on to.
    /// A request (``isPassing``) reads it after closing the action list; the step writes it after
    /// pushing its vote, so a request that finds it finds the vote in the list it took, or the
    /// push found the list closed and cast the vote at once (Tests/Model/petal_chain_pass.pml).
    func markPassing() {
        var seen: petal_word = 0
        // FULL: as every move of this word; written once, from 0.
        _ = petal_atomic_word_exchange(producerStateWord, &seen, Self.startPassing)
    }

    /// Whether the chained future follows a future that its request passes on to.
    var isPassing: Bool {
        petal_atomic_word_load(producerStateWord) == Self.startPassing
    }

    // MARK: Actions

    /// Registers `node`: it runs at once, on this thread, if a request already closed the list;
    /// it is dropped if the future's resolution did; otherwise it waits for either.
    /// `resolutionBegun` (whether the word has its outcome bit, written or not) is asked after
    /// the push, so an action registered while the future resolves is let go by one of the two
    /// (see `FutureStorage.publish(_:claimed:)`).
    func add(_ node: __owned CancellationAction, resolutionBegun: () -> Bool) {
        let node = Unmanaged.passRetained(node)
        let address = petal_word(UInt(bitPattern: node.toOpaque()))
        var head = petal_atomic_word_load(actionsWord)
        while true {
            if head == Self.closedByRequest { return node.takeRetainedValue().run() }
            if head == Self.closedByResolution { return node.release() }
            node._withUnsafeGuaranteedRef { $0.next = head }
            // FULL: publishes the node to the thread that closes the list (release), and orders
            // the push before the resolution check below (see the doc comment).
            if petal_atomic_word_exchange(actionsWord, &head, address) != 0 { break }
        }
        if resolutionBegun() { releaseActions() }
    }

    /// Closes the list for a request and returns what it held: the head, whose nodes the caller
    /// takes with `CancellationActions(takingNewestFirst:)`, and action zero, which the caller
    /// runs first. Only the request's winner calls it, once; nothing when the resolution closed
    /// the list first.
    func closeForRequest() -> (head: petal_word, producerStop: Action?) {
        guard let head = close(with: Self.closedByRequest) else { return (0, nil) }
        return (head, takeProducerStop())
    }

    /// Closes the list for the future's resolution and releases its actions unrun.
    func releaseActions() {
        guard let head = close(with: Self.closedByResolution) else { return }
        _ = takeProducerStop()
        CancellationActions.release(newestFirst: head)
    }

    /// Exchanges the list for `sentinel` unless it is closed already; returns the head it held
    /// (0 for none), whose nodes the caller now owns, or `nil` if another thread closed it.
    private func close(with sentinel: petal_word) -> petal_word? {
        var head = petal_atomic_word_load(actionsWord)
        while head > Self.closedByResolution || head == 0 {
            // FULL: acquires the nodes their pushers released.
            if petal_atomic_word_exchange(actionsWord, &head, sentinel) != 0 { return head }
        }
        return nil
    }

    /// Action zero, taken out by the thread that closed the list (once), or by the thread that
    /// made a record it could not install. Set before the record was published by the slot's
    /// FULL compare-and-swap, which every closer's path loaded.
    func takeProducerStop() -> Action? {
        withUnsafeMutablePointerToHeader { words in
            guard words.pointee.producerStop != nil else { return nil }
            defer { words.pointee.producerStop = nil }
            return words.pointee.producerStop
        }
    }
}
