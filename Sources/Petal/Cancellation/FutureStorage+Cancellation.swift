import CPetal

/// A future's side of upstream cancellation: its ``CancellationRecord``, created by the first
/// user of cancellation, and the request and vote rules (see <doc:Cancellation>).
extension FutureStorage {
    /// The record, if anyone installed one, unretained: the future holds it until its deinit,
    /// so it outlives every call on the future. Read it with `_withUnsafeGuaranteedRef`: a
    /// strong reference would cost a retain and a release on every use.
    final var installedRecord: Unmanaged<CancellationRecord>? {
        // ACQUIRE: the record's words were initialised before its installing CAS.
        Self.record(in: petal_atomic_word_load(cancellationSlot))
    }

    /// The record a value of the cancellation slot points to: none for 0 or for
    /// `PETAL_CANCELLATION_MAY_PASS`.
    private static func record(in slot: petal_word) -> Unmanaged<CancellationRecord>? {
        guard slot > mayPassSlot else { return nil }
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: UInt(slot)).unsafelyUnwrapped)
    }

    /// The slot of a future that may pass requests on and has no record yet.
    @usableFromInline
    static var mayPassSlot: petal_word { petal_word(PETAL_CANCELLATION_MAY_PASS) }

    /// The record, if anyone installed one (a strong reference, for those who keep it).
    final var cancellationRecord: CancellationRecord? {
        installedRecord?.takeUnretainedValue()
    }

    /// The record, installed now if there is none yet (one compare-and-swap; a loser releases
    /// its own and uses the winner's); unretained, as ``installedRecord``.
    ///
    /// A future made able to pass requests on (`PETAL_CANCELLATION_MAY_PASS`) gets a record
    /// that propagates if it still may (see ``propagatesRequests``).
    final func installRecord(producerState: petal_word = 0) -> Unmanaged<CancellationRecord> {
        installRecord(producerState: producerState, counting: 0).record
    }

    /// ``installRecord(producerState:)``, for a caller that counts a dependent: a record made
    /// here starts with `dependents` counted, saving the caller's compare-and-swap of the request
    /// word (`counted` is then `true`).
    private func installRecord(
        producerState: petal_word = 0, counting dependents: petal_word
    ) -> (record: Unmanaged<CancellationRecord>, counted: Bool) {
        var seen = petal_atomic_word_load(cancellationSlot)
        if let record = Self.record(in: seen) { return (record, false) }
        CancellationRecord.checkLayout()
        let propagates = seen == Self.mayPassSlot && mayStillPass ? CancellationRecord.propagates : 0
        let record = Unmanaged.passRetained(
            CancellationRecord.make(request: propagates | dependents, producerState: producerState))
        // FULL: publishes the record's initialised words to every later reader of the slot. The
        // slot only ever moves from 0 or MAY_PASS to a record, so a lost exchange found one.
        if petal_atomic_word_exchange(cancellationSlot, &seen, petal_word(UInt(bitPattern: record.toOpaque()))) != 0 {
            return (record, dependents != 0)  // the slot owns the +1 until the future's deinit
        }
        record.release()
        return (installedRecord.unsafelyUnwrapped, false)
    }

    /// Whether a future made able to pass requests on still may: its step has not yet found
    /// that the future it follows cannot be asked. RELAXED: a stale `true` only links a
    /// dependent that did not need it (its request then cancels this future, as a request on a
    /// future that cannot pass it on does).
    private var mayStillPass: Bool {
        petal_atomic_u8_load_relaxed(mayPassFlag) != 0
    }

    /// The record, installed now if there is none yet (a strong reference, for a job to keep).
    final func makeCancellationRecord(producerState: petal_word = 0) -> CancellationRecord {
        installRecord(producerState: producerState).takeUnretainedValue()
    }

    /// The installed record's request word, 0 without a record.
    private var requestWord: petal_word {
        guard let record = installedRecord else { return 0 }
        return record._withUnsafeGuaranteedRef { petal_atomic_word_load($0.requestWord) }
    }

    /// Whether requests can reach a producer from this future: its record says so, or it has
    /// none yet but was made able to pass requests on and still may.
    @usableFromInline
    final var propagatesRequests: Bool {
        let slot = petal_atomic_word_load(cancellationSlot)
        guard let record = Self.record(in: slot) else { return slot == Self.mayPassSlot && mayStillPass }
        return record._withUnsafeGuaranteedRef { petal_atomic_word_load($0.requestWord) }
            & CancellationRecord.propagates
            != 0
    }

    /// Whether a request has reached this future.
    final var isCancellationRequested: Bool {
        requestWord & CancellationRecord.requested != 0
    }

    /// How many counted dependents the future has.
    final var cancellationDependentCount: Int {
        Int(CancellationRecord.dependents(requestWord))
    }

    /// Marks the future as one whose requests can reach a producer.
    @usableFromInline
    final func markPropagating() {
        _ = installRecord()._withUnsafeGuaranteedRef { $0.updateRequest(CancellationRecord.propagating) }
    }

    /// Registers `action` to answer a request: it runs at once if one already reached this
    /// future, and is released unrun when the future resolves first.
    @usableFromInline
    final func addCancellationAction(_ action: consuming @escaping CancellationRecord.Action) {
        addCancellationAction(CancellationClosure(consume action))
    }

    /// Registers `node` to answer a request (see ``addCancellationAction(_:)-closure``).
    @usableFromInline
    final func addCancellationAction(_ node: __owned CancellationAction) {
        installRecord()._withUnsafeGuaranteedRef { $0.add(node, resolutionBegun: { hasOutcomeBit }) }
    }

    /// Counts one more dependent that may vote. Returns `false` if the count is saturated (the
    /// dependent's vote would never be counted) or a request already arrived.
    @usableFromInline
    @discardableResult
    final func addDependent() -> Bool {
        let (record, counted) = installRecord(counting: 1)
        return counted
            || record._withUnsafeGuaranteedRef { $0.updateRequest(CancellationRecord.addingDependent) } != nil
    }

    /// Links `downstream`, just created by chaining onto this future, if requests can travel
    /// from here (the chaining methods call it only when there is a record).
    @inlinable
    @inline(never)
    final func linkIfPropagating<Downstream>(_ downstream: FutureStorage<Downstream>) {
        if propagatesRequests { linkDependent(downstream) }
    }

    /// Links `downstream`, just created by chaining onto this propagating future: it counts as
    /// a dependent here, propagates itself, and a request that reaches it votes here.
    @inlinable
    final func linkDependent<Downstream>(_ downstream: FutureStorage<Downstream>) {
        guard addDependent() else { return downstream.markPropagating() }
        // The vote holds this future until the downstream resolves or is freed: only chains
        // whose producer can be asked pay for it.
        downstream.addUpstreamVote(on: self)
    }

    /// Registers the vote of this future, a dependent just counted by `upstream`, on
    /// `upstream`, and makes this future propagate. A chained future with no record yet (one
    /// just chained, or a step's that may pass requests on) gets one made with the vote as its
    /// action zero, which a chained future has no other use for: one allocation, no node.
    /// Otherwise the vote is a node.
    @inlinable
    final func addUpstreamVote<Upstream>(on upstream: FutureStorage<Upstream>) {
        var seen = petal_atomic_word_load(cancellationSlot)
        if seen <= Self.mayPassSlot, isChained {
            // The future is only ever reached through the vote, which a request or the
            // resolution takes once: unchecked, as UpstreamVote's reference is. Capturing one
            // reference, the closure needs no context of its own.
            nonisolated(unsafe) let target = upstream
            if installRecord(voting: { target.receiveVote() }, replacing: &seen) { return }
        }
        markPropagating()
        addCancellationAction(UpstreamVote(on: upstream))
    }

    /// Installs a propagating record whose action zero is `vote` in the slot of this chained
    /// future, which held `seen` (0 or MAY_PASS); `false`, with nothing installed, if another
    /// thread installed a record first.
    @usableFromInline
    final func installRecord(voting vote: @escaping CancellationRecord.Action, replacing seen: inout petal_word) -> Bool
    {
        CancellationRecord.checkLayout()
        let record = Unmanaged.passRetained(
            CancellationRecord.make(request: CancellationRecord.propagates, producerStop: vote))
        // FULL: publishes the record, its vote included; then the cell is loaded, as for a
        // promise's stop (addProducerStop): a resolution that published before this install
        // did not see the record, so the vote is let go here.
        if petal_atomic_word_exchange(cancellationSlot, &seen, petal_word(UInt(bitPattern: record.toOpaque()))) != 0 {
            if hasOutcomeBit { record._withUnsafeGuaranteedRef { $0.releaseActions() } }
            return true
        }
        record.release()
        return false
    }

    /// Makes this future, the own future of a combinator or a timeout, a counted dependent of
    /// `input` if requests can travel from there: its giving up on `input`
    /// (``giveUpUpstream()``), and a request that reaches it, then vote on `input`.
    ///
    /// `answer` runs first when a request reaches this future: it must decide this future as
    /// cancelled through the combinator's or the timeout's own one-shot. It is registered with
    /// the first input linked, so a future none of whose inputs propagate pays nothing; pass
    /// the same `linked` flag for every input of one call.
    @inlinable
    final func dependOnUpstream<Input>(
        _ input: FutureStorage<Input>, linked: inout Bool,
        answeringRequestsWith answer: () -> @Sendable () -> Void
    ) {
        guard input.propagatesRequests else { return }
        if !linked {
            addCancellationAction(answer())
            linked = true
        }
        input.linkDependent(self)
    }

    /// ``dependOnUpstream(_:linked:answeringRequestsWith:)`` for the inputs of an array
    /// combinator, all of one type: each input counted is added to `counted` instead of getting
    /// a vote action of its own; ``addUpstreamVotes(_:)`` then registers one action for all of
    /// them, after the last input (one allocation for a request's votes rather than one per
    /// input).
    @inlinable
    final func dependOnUpstream<Input>(
        _ input: FutureStorage<Input>, counting counted: inout [FutureStorage<Input>], of inputCount: Int,
        linked: inout Bool, answeringRequestsWith answer: () -> @Sendable () -> Void
    ) {
        guard input.propagatesRequests else { return }
        if !linked {
            addCancellationAction(answer())
            markPropagating()
            counted.reserveCapacity(inputCount)
            linked = true
        }
        if input.addDependent() { counted.append(input) }
    }

    /// Registers the votes on `upstreams`, the inputs ``dependOnUpstream(_:counting:of:linked:answeringRequestsWith:)``
    /// counted. If this future was asked or gave up meanwhile (an input decided it during the
    /// loop), the votes are cast at once, as each would have been on its own.
    @inlinable
    final func addUpstreamVotes<Input>(_ upstreams: [FutureStorage<Input>]) {
        guard !upstreams.isEmpty else { return }
        addCancellationAction(UpstreamVotes(on: upstreams))
    }

    /// This future, a combinator's or a timeout's own, gives up on the inputs it still waits
    /// for: it votes on each input it depends on (see `dependOnUpstream`), on this thread, before
    /// it resolves. Votes on inputs that already resolved change nothing.
    /// Closes the action list as a request would, so a request arriving later runs nothing
    /// twice; one load of an empty slot for a future without upstream links.
    @usableFromInline
    final func giveUpUpstream() {
        guard let record = installedRecord else { return }
        runActions(record._withUnsafeGuaranteedRef { $0.closeForRequest() })
    }

    /// Asks this future to cancel on behalf of whoever holds it: unconditional, once.
    final func requestCancellation() {
        guard !isResolved else { return }
        let written = installRecord()._withUnsafeGuaranteedRef { $0.updateRequest(CancellationRecord.requesting) }
        if written != nil { answerCancellationRequest() }
    }

    /// One counted dependent asks: the future is asked once every counted dependent has.
    @usableFromInline
    final func receiveVote() {
        guard !isResolved, let record = installedRecord else { return }
        let written = record._withUnsafeGuaranteedRef { $0.updateRequest(CancellationRecord.voting) }
        if let written, written & CancellationRecord.requested != 0 { answerCancellationRequest() }
    }

    /// Answers the request this thread won: a chained future first cancels itself (without an
    /// indirect error: a request is not a failure), so its step never runs and its dependents
    /// are cancelled by the one failure rule; then the registered actions run, oldest first
    /// (for a chained future, its vote on its upstream). Taken before the cancellation, which
    /// would release them.
    ///
    /// A chained future whose step returned a future that passes requests on (``markPassing()``)
    /// is not cancelled: its vote there is the answer, and it resolves as that future does.
    private func answerCancellationRequest() {
        let record = installRecord()
        let closed = record._withUnsafeGuaranteedRef { $0.closeForRequest() }
        if isChained, !record._withUnsafeGuaranteedRef({ $0.isPassing }) { fail(.cancelled, error: nil) }
        runActions(closed)
    }

    /// Marks this chained future as following a future its step's closure returned, which it
    /// votes on: a request no longer cancels it (see ``answerCancellationRequest()``). Called
    /// once, by the step, after the vote was registered.
    @usableFromInline
    final func markPassing() {
        installRecord()._withUnsafeGuaranteedRef { $0.markPassing() }
    }

    /// Runs what a close for a request took: action zero first (the promise's stop: this
    /// future is cancelled, as `ProducerStop` does, then the stop runs, only if that
    /// cancellation won; a chained future's vote upstream, which always runs), then the nodes,
    /// oldest first.
    private func runActions(_ closed: (head: petal_word, producerStop: CancellationRecord.Action?)) {
        let actions = CancellationActions(takingNewestFirst: closed.head)
        if let zero = closed.producerStop, isChained || stopsProducer() { zero() }
        actions.run()
    }

    /// Whether a request's answer stops this future's producer: it cancels the future, and the
    /// stop runs only if that cancellation won. A stop whose promise was resolved meanwhile (the
    /// reply raced the request, or an earlier handler fulfilled it) would stop work that has
    /// already answered, and the documentation promises it never runs then.
    ///
    /// A future of `Future.startFollowing(on:executing:)` also has a gate in its record: the request
    /// cancels it only if it closed the gate before the closure opened it (see
    /// ``CancellationRecord/closeStartGate()``); once the closure runs, the request is passed on
    /// to the future it returns instead.
    @usableFromInline
    final func stopsProducer() -> Bool {
        if let record = installedRecord, !record._withUnsafeGuaranteedRef({ $0.closeStartGate() }) { return false }
        return fail(.cancelled, error: nil)
    }

    /// Registers a promise's stop to answer a request (this future is cancelled, then `stop`
    /// runs), and makes the future propagate requests. When the future has no record yet, as is
    /// usual for a promise just made, the stop is the new record's action zero: no node is
    /// allocated. Otherwise it is a `ProducerStop` node.
    @usableFromInline
    final func addProducerStop(_ stop: consuming @escaping CancellationRecord.Action) {
        if installedRecord == nil {
            CancellationRecord.checkLayout()
            // Moved into the record, not copied: a stop that captures a call is retained once,
            // when the caller's closure was made.
            let record = Unmanaged.passRetained(
                CancellationRecord.make(request: CancellationRecord.propagates, producerStop: consume stop))
            var seen: petal_word = 0
            // FULL: publishes the record, action zero included. Then the cell is loaded: a
            // resolution publishes with a FULL compare-and-swap before it loads this slot, so
            // one of the two sees the other and the stop is never left behind by both (a close
            // happens once, whoever makes it).
            if petal_atomic_word_exchange(cancellationSlot, &seen, petal_word(UInt(bitPattern: record.toOpaque()))) != 0
            {
                if hasOutcomeBit { record._withUnsafeGuaranteedRef { $0.releaseActions() } }
                return
            }
            // Another thread installed a record first: the stop goes there as a node, taken
            // back from this record, which no other thread has seen.
            stop = record._withUnsafeGuaranteedRef { $0.takeProducerStop() }.unsafelyUnwrapped
            record.release()
        }
        markPropagating()
        addCancellationAction(ProducerStop(cancelling: self, then: consume stop))
    }
}

/// Core's hook for a resolved future with an attachment (`petal_swift_hooks.h`): the attachment
/// is always a ``CancellationRecord``, and a resolved future needs none of its actions.
@_cdecl("petal_swift_attachment_resolved")
func attachmentResolved(_ attachment: petal_word) {
    let address = UnsafeRawPointer(bitPattern: UInt(attachment)).unsafelyUnwrapped
    Unmanaged<CancellationRecord>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.releaseActions() }
}

extension FutureStorage {
    /// Makes this future, just made by `Future.startFollowing(on:executing:)` and not yet shared, pass
    /// requests on from the start, with the record's start gate (``CancellationRecord/startGate``)
    /// between a request and the closure.
    @usableFromInline
    final func addStartGate() {
        CancellationRecord.checkLayout()
        // Action zero does nothing: cancelling the future is the whole answer before the closure
        // runs. A thin closure: no context to allocate.
        let record = Unmanaged.passRetained(
            CancellationRecord.make(
                request: CancellationRecord.propagates, producerState: CancellationRecord.startGate,
                producerStop: {}))
        var seen: petal_word = 0
        // FULL: publishes the record's words, as installRecord does. Nobody else can have
        // installed one: the future is not shared yet.
        let installed = petal_atomic_word_exchange(
            cancellationSlot, &seen, petal_word(UInt(bitPattern: record.toOpaque())))
        precondition(installed != 0, "Petal: a started future had a cancellation record already")
    }

    /// `Future.startFollowing(on:executing:)` for a future-returning `body`: runs it unless a request
    /// closed the gate first, then follows the future it returns, passing requests on to it.
    @usableFromInline
    final func followStarted(_ body: () throws -> Future<Value>) {
        let record = installedRecord.unsafelyUnwrapped
        guard record._withUnsafeGuaranteedRef({ $0.openStartGate() }) else { return }
        guard let source = futureToFollow("Future.startFollowing(on:executing:)", body) else { return }
        let passing = source.propagatesRequests
        // Linked before the gate says PASSING: a request that finds PASSING relies on the vote,
        // which this link casts at once if a request already closed the action list.
        if passing { source.linkDependent(self) }
        if record._withUnsafeGuaranteedRef({ $0.followStartGate(passing: passing) }) { fail(.cancelled, error: nil) }
        source.subscribe(.forward(self))
    }
}
