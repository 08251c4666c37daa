import CPetal

/// The kinds a resolved cell carries beside its word (`petal_cell_kind`).
@usableFromInline
enum OutcomeKind: UInt32 {
    case fulfilled = 0
    case rejected = 1
    case cancelled = 2

    /// The kind of a cell whose word was seen (with an acquire load) to carry an outcome.
    @inlinable
    init(publishedIn cell: UnsafeMutablePointer<petal_cell>) {
        self = OutcomeKind(rawValue: petal_cell_kind(cell)).unsafelyUnwrapped
    }
}

/// The non-value state of a future, in the `ManagedBuffer` header (the value is the tail).
///
/// Trivially copyable and independent of `Value`: the inline slot's callback lives in raw
/// storage of its size, reached through a typed pointer (see ``FutureStorage``). So creating a
/// storage writes the header in place, with no value-witness copy, and the generic deinit
/// destroys the header with no metadata look-up; the deinit destroys a callback still in the
/// slot by hand, and only when there is one. The field order is relied upon (see
/// `FutureStorage.checkLayout`), and the header is 48 bytes, a multiple of 8, so that the tail
/// after it can hold the error (see ``FutureStorage``).
@usableFromInline
struct FutureHeader {
    /// The C cell: the word (phase, reservation count, waiter blocks), the inline slot's commit
    /// flag and the outcome kind.
    @usableFromInline
    var cell: petal_cell
    /// The future's ``CancellationRecord``, as a retained pointer, or 0 (almost always): the
    /// one place upstream cancellation keeps anything. Installed once by compare-and-swap by
    /// the first user of cancellation, released by the deinit; touched only through C atomics.
    @usableFromInline
    var cancellation: petal_atomic_word
    /// Storage for the first subscriber's callback, a `Callback<Value>` (of the same size for
    /// every `Value`: each case holds a closure or a reference). Initialised by the subscriber
    /// that reserved the slot before its release commit; moved out by whoever runs it, or by
    /// that subscriber if the deliverer skipped it.
    @usableFromInline
    var slotStorage: (UInt, UInt, UInt8)
    /// Whether a chained future still holds its step (see ``ChainStepStorage``). Written before the
    /// storage is shared and by the one delivering thread; read by the deinit, after the last
    /// release.
    @usableFromInline
    var holdsStep: Bool
    /// Whether this is a chained future (a ``ChainStepStorage``), which a cancellation request
    /// cancels at once. Written at creation, then only read; a byte of its own, as `holdsStep`
    /// is written while requests may read this.
    @usableFromInline
    var isChained: Bool
    /// Pads the header to 48 bytes, so the tail starts 8-aligned whatever the value.
    @usableFromInline
    var padding: (UInt8, UInt8, UInt8, UInt8, UInt8)

    /// A pending header (with `kind`, a resolved one): a storage created resolved with an error
    /// writes it through ``FutureStorage/error`` before it is shared.
    @inlinable
    init(resolvedAs kind: OutcomeKind? = nil, chained: Bool = false) {
        // petal_cell_init and petal_cell_init_resolved, spelt out as values: the header is built
        // in place.
        if let kind {
            cell = petal_cell(word: PETAL_PHASE_RESOLVED, slot_flag: PETAL_SLOT_SKIPPED, kind: kind.rawValue)
        } else {
            cell = petal_cell(word: PETAL_PHASE_PENDING, slot_flag: PETAL_SLOT_EMPTY, kind: 0)
        }
        cancellation = petal_atomic_word(value: 0)
        slotStorage = (0, 0, 0)
        holdsStep = chained
        isChained = chained
        padding = (0, 0, 0, 0, 0)
    }
}

/// A future's storage: one allocation holding the cell, the outcome and the first waiter.
///
/// Why a `ManagedBuffer`: the C core needs the cell at an address that never moves, and a
/// `ManagedBuffer`'s header and tail are the only class storage Swift guarantees addressable.
/// The value is the tail element rather than a `Value?` property because a generic class with a
/// stored `Optional<Value>` pays a generic-metadata look-up in every deinit; here the value
/// is initialised only when fulfilled, and deinitialised by hand.
///
/// The tail holds the outcome: the value when fulfilled, the error (an `(any Error)?`) when
/// rejected or cancelled, never both, so they share its first bytes and the tail is at least
/// as large as the error. Every read of the error follows a check that the kind is not
/// `.fulfilled`, and the deinit destroys one or the other by the kind. That keeps the header
/// at 48 bytes with the cancellation pointer in it: a `Future<Int>` is one 80-byte chunk.
///
/// Synchronisation: everything here is either written before the storage is shared (creation),
/// or ordered by the cell protocol (see `petal.h`): the outcome is written by the one claimer
/// before its publish, the slot by the one reserver before its release commit, and both are read
/// only after an acquire of the word.
///
/// Not final: a chained future is a subclass (``ChainStepStorage``) that keeps its step in extra tail
/// space after the value, so a chain step is one allocation. Every member is `final` so calls
/// stay direct.
@usableFromInline
class FutureStorage<Value>: ManagedBuffer<FutureHeader, Value> {

    /// A pending storage with no waiters.
    @inlinable
    static func makePending() -> FutureStorage<Value> {
        checkLayout()
        return unsafeDowncast(
            create(minimumCapacity: outcomeCapacity) { _ in FutureHeader() },
            to: FutureStorage<Value>.self
        )
    }

    /// A storage that is resolved from the start: no atomics, as nothing can observe it yet.
    @inlinable
    static func makeResolved(_ outcome: Outcome<Value>) -> FutureStorage<Value> {
        checkLayout()
        let kind: OutcomeKind
        let error: (any Error)?
        switch outcome {
        case .fulfilled: (kind, error) = (.fulfilled, nil)
        case .rejected(let rejection): (kind, error) = (.rejected, rejection)
        case .cancelled(let indirectError): (kind, error) = (.cancelled, indirectError)
        }
        let storage = unsafeDowncast(
            create(minimumCapacity: outcomeCapacity) { _ in FutureHeader(resolvedAs: kind) },
            to: FutureStorage<Value>.self
        )
        if kind != .fulfilled { storage.error.initialize(to: error) }
        if case .fulfilled(let value) = outcome {
            storage.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
        }
        return storage
    }

    deinit {
        // Acquire: the fulfilment that initialised the value happens before its destruction.
        // A trivial value needs no destruction, and checking costs this generic code no
        // metadata look-up, unlike the destruction.
        let word = petal_cell_load(cell)
        // The cancellation record, for the few futures that have one (one load for the rest).
        if petal_atomic_word_load(cancellationSlot) != 0 { releaseCancellationRecord() }
        guard petal_word_has_outcome(word) != 0 else { return freeUndelivered(word) }
        // The header is trivial: what the tail holds goes by hand. The error's type is
        // concrete, so releasing it needs no metadata.
        if OutcomeKind(publishedIn: cell) != .fulfilled {
            if (headerAddress + Self.tailOffset).load(as: UInt.self) != 0 { error.deinitialize(count: 1) }
            return
        }
        guard !_isPOD(Value.self) else { return }
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }

    /// Frees the waiters of a storage freed before it resolved. Only an internal storage nobody
    /// could resolve any more gets here (a promise resolves its future before letting go); its
    /// waiters can never run. No subscriber can be between a reservation and its commit (it
    /// would hold a reference), so every reserved slot holds a callback exactly when it is READY.
    ///
    /// The callbacks are released through the trampoline, not here: a callback may hold the
    /// next link of a chain that is itself undelivered, whose deinit releases the next, and so
    /// on; past the trampoline's depth the rest is released by the outermost frame, so a chain
    /// of any length is freed in bounded stack.
    @inline(never)
    private func freeUndelivered(_ word: petal_word) {
        let doomed = UndeliveredCallbacks<Value>()
        if petal_cell_slot_flag(cell).pointee == PETAL_SLOT_READY { doomed.callbacks.append(slot.move()) }
        var next = petal_blocks_in_order(word)
        while let block = next {
            next = block.pointee.next
            for index in 0..<petal_block_reserved(block) {
                if petal_block_flag(block, index).pointee == PETAL_SLOT_READY {
                    doomed.callbacks.append(CallbackBlock<Value>.callback(block, Int(index)).move())
                }
            }
            petal_block_free(block)
        }
        guard !doomed.callbacks.isEmpty else { return }
        Trampoline.run { doomed.callbacks.removeAll() }
    }

    // Each header field is reached through its own pointer, never as `header.pointee.field`: a
    // Swift access to `pointee` covers the whole header, cell word included, so ThreadSanitizer
    // would rightly see it overlap the C atomics of other threads (see ``FieldLayout``).

    /// The header's address.
    @inlinable
    final var headerAddress: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToHeader { UnsafeMutableRawPointer($0) }
    }

    // The callback's layout does not depend on `Value` (every case holds a closure or a
    // reference), so a fixed instance stands in for it: generic code then needs no metadata.
    @usableFromInline
    typealias CallbackLayout = Callback<Never>

    /// The offsets of the header's fields, in declaration order, and where the tail starts.
    @inlinable
    static var headerLayout: (cancellation: Int, slot: Int, holdsStep: Int, isChained: Int, tail: Int) {
        var layout = FieldLayout()
        _ = layout.place(petal_cell.self)
        let cancellation = layout.place(petal_atomic_word.self)
        let slot = layout.place(CallbackLayout.self)
        let holdsStep = layout.place(Bool.self)
        let isChained = layout.place(Bool.self)
        _ = layout.place((UInt8, UInt8, UInt8, UInt8, UInt8).self)
        return (cancellation, slot, holdsStep, isChained, layout.end)
    }

    /// Where the tail starts, from the header's address: the value or the error.
    @inlinable
    static var tailOffset: Int {
        headerLayout.tail.roundedUp(to: MemoryLayout<Value>.alignment)
    }

    /// The bytes the outcome needs at the start of the tail: the value or the error.
    @inlinable
    static var outcomeSize: Int {
        Swift.max(MemoryLayout<Value>.size, MemoryLayout<(any Error)?>.size)
    }

    /// Tail elements that hold the outcome.
    @inlinable
    static var outcomeCapacity: Int {
        let stride = MemoryLayout<Value>.stride
        return (outcomeSize + stride - 1) / stride
    }

    /// The C cell, first in the header.
    @inlinable
    final var cell: UnsafeMutablePointer<petal_cell> {
        headerAddress.assumingMemoryBound(to: petal_cell.self)
    }

    /// The rejection error or the cancellation's indirect error, in the tail where a value
    /// would be: read it only for an outcome that is not `.fulfilled`.
    @inlinable
    final var error: UnsafeMutablePointer<(any Error)?> {
        (headerAddress + Self.tailOffset).assumingMemoryBound(to: (any Error)?.self)
    }

    /// The slot holding the ``CancellationRecord``'s retained pointer, or 0.
    @inlinable
    final var cancellationSlot: UnsafeMutablePointer<petal_atomic_word> {
        (headerAddress + Self.headerLayout.cancellation).assumingMemoryBound(to: petal_atomic_word.self)
    }

    /// The inline slot for the first subscriber's callback (initialised only between its fill
    /// and its move).
    @inlinable
    final var slot: UnsafeMutablePointer<Callback<Value>> {
        (headerAddress + Self.headerLayout.slot).assumingMemoryBound(to: Callback<Value>.self)
    }

    /// Whether a chained future still holds its step.
    @inlinable
    final var holdsStep: UnsafeMutablePointer<Bool> {
        (headerAddress + Self.headerLayout.holdsStep).assumingMemoryBound(to: Bool.self)
    }

    /// Whether this is a chained future (set at creation, then only read).
    @inlinable
    final var isChained: Bool {
        (headerAddress + Self.headerLayout.isChained).load(as: Bool.self)
    }

    /// Debug builds: the computed offsets are the compiler's, and the tail is where the
    /// elements are.
    @inlinable
    static func checkLayout() {
        let layout = headerLayout
        assert(MemoryLayout<FutureHeader>.offset(of: \.cell) == 0)
        assert(MemoryLayout<FutureHeader>.offset(of: \.cancellation) == layout.cancellation)
        assert(MemoryLayout<FutureHeader>.offset(of: \.slotStorage) == layout.slot)
        assert(MemoryLayout<FutureHeader>.offset(of: \.holdsStep) == layout.holdsStep)
        assert(MemoryLayout<FutureHeader>.offset(of: \.isChained) == layout.isChained)
        assert(MemoryLayout<FutureHeader>.size == layout.tail && layout.tail % 8 == 0)
        // The raw storage fits what it stores, and a zeroed error is `nil`.
        assert(MemoryLayout<(any Error)?>.size == MemoryLayout<UInt>.size)
        assert(MemoryLayout<Callback<Value>>.size == MemoryLayout<CallbackLayout>.size)
        assert(MemoryLayout<Callback<Value>>.size <= MemoryLayout<(UInt, UInt, UInt8)>.size)
        assert(MemoryLayout<Callback<Value>>.alignment <= MemoryLayout<(UInt, UInt, UInt8)>.alignment)
    }

    // MARK: Reading

    /// The value; call only after an acquire load of the word saw it fulfilled.
    @inlinable
    final var value: Value {
        withUnsafeMutablePointerToElements { $0.pointee }
    }

    /// The outcome; call only after an acquire load of the word saw it resolved with `kind`.
    @inlinable
    final func outcome(kind: OutcomeKind) -> Outcome<Value> {
        switch kind {
        case .fulfilled:
            return .fulfilled(withUnsafeMutablePointerToElements { $0.pointee })
        case .rejected:
            return .rejected(error.pointee.unsafelyUnwrapped)
        case .cancelled:
            return .cancelled(indirectError: error.pointee)
        }
    }

    /// The outcome, or `nil` while pending (including while a resolver is writing it).
    @inlinable
    final func peek() -> Outcome<Value>? {
        let word = petal_cell_load(cell)
        guard petal_word_has_outcome(word) != 0 else { return nil }
        return outcome(kind: OutcomeKind(publishedIn: cell))
    }

    /// Whether callbacks wait on this unresolved future (for tests: it says whether a
    /// combinator subscribed to an input).
    final var hasWaiters: Bool {
        let word = petal_cell_load(cell)
        return petal_word_has_outcome(word) == 0 && petal_word_has_waiters(word) != 0
    }

    @inlinable
    final var isResolved: Bool {
        petal_word_has_outcome(petal_cell_load(cell)) != 0
    }

    // MARK: Subscribing

    /// Registers `callback`; it runs once, after resolution, in subscription order. The first
    /// subscriber takes the inline slot (no allocation); later ones share waiter blocks, one
    /// allocation per `PETAL_BLOCK_SLOTS` subscribers (see `petal.h` for the protocol).
    ///
    /// The callback is moved, never copied: into the slot it reserved, back out if the deliverer
    /// skipped that slot (then it subscribes again), so no retain or release is spent on it.
    @inlinable
    final func subscribe(_ callback: consuming Callback<Value>) {
        var reservation = petal_reservation()
        // A block allocated for a push that lost its race, kept for the next attempt.
        var spare: UnsafeMutablePointer<petal_block>? = nil
        while true {
            switch petal_cell_reserve(cell, &reservation) {
            case PETAL_RESERVED_INLINE:
                slot.initialize(to: consume callback)
                if petal_slot_commit(petal_cell_slot_flag(cell)) != 0 { return discard(spare) }
                callback = slot.move()
            case PETAL_RESERVED_SLOT:
                let block = reservation.block.unsafelyUnwrapped
                let index = reservation.index
                let place = CallbackBlock<Value>.callback(block, Int(index))
                place.initialize(to: consume callback)
                if petal_slot_commit(petal_block_flag(block, index)) != 0 { return discard(spare) }
                // Skipped by the deliverer: take the callback back, leave the block (freeing it
                // if everyone else is done with it), and subscribe again.
                callback = place.move()
                if petal_block_leave(block) != 0 { petal_block_free(block) }
            case PETAL_NEEDS_BLOCK:
                let block = spare ?? CallbackBlock<Value>.allocate()
                CallbackBlock<Value>.callback(block, 0).initialize(to: consume callback)
                petal_block_flag(block, 0).pointee = PETAL_SLOT_READY  // private until pushed
                if petal_cell_push(cell, block, &reservation) != 0 { return }
                callback = CallbackBlock<Value>.callback(block, 0).move()
                petal_block_flag(block, 0).pointee = PETAL_SLOT_EMPTY
                spare = block
            default:  // PETAL_ALREADY_RESOLVED
                discard(spare)
                return runResolved(callback)
            }
        }
    }

    /// Frees a block allocated for a push that was not needed in the end (it holds nothing).
    @inlinable
    final func discard(_ spare: UnsafeMutablePointer<petal_block>?) {
        if let spare { petal_block_free(spare) }
    }

    /// Runs a callback for a RESOLVED cell, through the trampoline.
    @inlinable
    final func runResolved(_ callback: consuming Callback<Value>) {
        let kind = OutcomeKind(publishedIn: cell)
        if petal_trampoline_enter_fast() != 0 {
            callback.invoke(from: self, kind: kind)
            petal_trampoline_leave_fast()
        } else {
            runResolvedLater(callback, kind: kind)
        }
    }

    /// Runs `body` with the outcome's kind at once, on this thread, if the future is resolved and
    /// `Context` is inline; returns whether it did. Otherwise the caller subscribes as usual.
    ///
    /// The fast path of every observer: one acquire load, and the user's closure is called as
    /// given, so no ``Callback`` is built (for a closure passed as a value, building one costs a
    /// reabstraction thunk: an allocation and three atomics). Deeply nested inline work still
    /// defers through the trampoline, by taking the ordinary path.
    @inlinable
    final func runNowIfResolved<Context: ExecutionContext>(on _: Context, _ body: (OutcomeKind) -> Void) -> Bool {
        guard Context.self == InlineExecutionContext.self else { return false }
        let word = petal_cell_load(cell)
        guard petal_word_is_resolved(word) != 0, petal_trampoline_enter_fast() != 0 else { return false }
        body(OutcomeKind(publishedIn: cell))
        petal_trampoline_leave_fast()
        return true
    }

    // Inlinable (though never inlined) so that it is specialised with its caller: the
    // deferred waiters then run specialised code too.
    @inlinable
    @inline(never)
    final func runResolvedLater(_ callback: Callback<Value>, kind: OutcomeKind) {
        DeferredBlock.enqueue(DeferredCallback(storage: self, callback: callback, kind: kind))
    }

    // MARK: Resolving

    /// Fulfils with `value` unless already resolved (or being resolved); returns whether it did.
    @inlinable
    @discardableResult
    final func fulfil(with value: Value) -> Bool {
        guard petal_cell_claim(cell) != 0 else { return false }
        withUnsafeMutablePointerToElements { $0.initialize(to: value) }
        publish(.fulfilled)
        return true
    }

    /// Rejects or cancels with `error` unless already resolved; returns whether it did.
    @inlinable
    @discardableResult
    final func fail(_ kind: OutcomeKind, error: (any Error)?) -> Bool {
        guard petal_cell_claim(cell) != 0 else { return false }
        self.error.initialize(to: error)
        publish(kind)
        return true
    }

    /// Resolves with `outcome` unless already resolved; returns whether it did.
    @inlinable
    @discardableResult
    final func resolve(with outcome: Outcome<Value>) -> Bool {
        switch outcome {
        case .fulfilled(let value): return fulfil(with: value)
        case .rejected(let error): return fail(.rejected, error: error)
        case .cancelled(let indirectError): return fail(.cancelled, error: indirectError)
        }
    }

    /// Resolves with the outcome `source` published with `kind`: a mirror, for a future whose
    /// own work is `source` (a future returned by a chaining closure, or a promise resolved from
    /// another future). Call only after an acquire load saw `source` resolved.
    @inlinable
    @discardableResult
    final func resolve(copying source: FutureStorage<Value>, kind: OutcomeKind) -> Bool {
        switch kind {
        case .fulfilled: return fulfil(with: source.value)
        case .rejected, .cancelled: return fail(kind, error: source.error.pointee)
        }
    }

    /// Cancels because `upstream` failed (rejected or cancelled): the one failure rule, which
    /// carries the upstream's error, or its indirect error, down as this future's indirect error.
    @inlinable
    @discardableResult
    final func cancel<Upstream>(following upstream: FutureStorage<Upstream>) -> Bool {
        fail(.cancelled, error: upstream.error.pointee)
    }

    /// Resolves as the one failure rule says a step that does nothing with `upstream`'s outcome
    /// must: fulfilled with its value, or cancelled with its error as the indirect error.
    @inlinable
    @discardableResult
    final func resolve(passingOn upstream: FutureStorage<Value>, kind: OutcomeKind) -> Bool {
        kind == .fulfilled ? fulfil(with: upstream.value) : cancel(following: upstream)
    }

    /// Fulfils with what `work` returns, or rejects with what it throws: this future's own work.
    @inlinable
    @discardableResult
    final func settle(_ work: () throws -> Value) -> Bool {
        let value: Value
        do {
            value = try work()
        } catch {
            return fail(.rejected, error: error)
        }
        return fulfil(with: value)
    }

    /// Publishes after a won claim, then runs the waiters it took, stack-safely.
    @inlinable
    final func publish(_ kind: OutcomeKind) {
        let taken = petal_cell_publish(cell, kind.rawValue)
        // A resolved future needs no cancellation actions: let go of them (and what they hold)
        // now. One load of a word in the cache line just written, 0 unless someone used
        // cancellation. Ordering: this load follows publish's FULL compare-and-swap, and
        // ``CancellationRecord/add(_:)`` loads the cell after its own FULL push: one of the
        // two sees the other, so an action is never left behind by both.
        if petal_atomic_word_load(cancellationSlot) != 0 { closeCancellationOnResolution() }
        // Nobody subscribed: the cell is RESOLVED already and there is nothing to run, but
        // perhaps threads or tasks to wake (one bit of a word in a register, set only by waits
        // that found the future pending).
        if petal_word_has_waiters(taken) == 0 {
            if petal_word_has_parked(taken) != 0 { ParkingLot.unpark(cell) }
            return
        }
        if petal_trampoline_enter_fast() != 0 {
            runWaiters(taken, kind: kind)
            petal_trampoline_leave_fast()
        } else {
            runWaitersLater(taken, kind: kind)
        }
    }

    // Inlinable (though never inlined) so that it is specialised with its caller: the
    // deferred waiters then run specialised code too.
    @inlinable
    @inline(never)
    final func runWaitersLater(_ taken: petal_word, kind: OutcomeKind) {
        DeferredBlock.enqueue(DeferredWaiters(storage: self, taken: taken, kind: kind))
    }

    /// Runs every waiter of a word taken by publish in subscription order: the inline slot
    /// (always the oldest), then the blocks oldest first, then whatever subscribed while those
    /// ran, until the cell is RESOLVED.
    @inlinable
    final func runWaiters(_ taken: petal_word, kind: OutcomeKind) {
        if petal_word_includes_inline(taken) != 0, petal_slot_settle(petal_cell_slot_flag(cell)) != 0 {
            slot.move().invoke(from: self, kind: kind)
        }
        if petal_word_list(taken) != nil { run(taken, kind: kind) }
        // Always ask for more, even after an inline-only batch: only take_more can close the
        // cell (DELIVERING -> RESOLVED), and late subscribers queue until it does.
        while true {
            let more = petal_cell_take_more(cell)
            if petal_word_list(more) == nil {
                // RESOLVED: wake the waits, after every callback subscribed before them.
                if petal_word_has_parked(more) != 0 { ParkingLot.unpark(cell) }
                return
            }
            run(more, kind: kind)
        }
    }

    /// Settles and runs the reserved slots of a taken word's blocks, oldest first, and frees
    /// each block once every party is done with it.
    @inlinable
    final func run(_ taken: petal_word, kind: OutcomeKind) {
        var next = petal_blocks_in_order(taken)
        while let block = next {
            next = block.pointee.next  // before the block is freed
            var stragglers: UInt32 = 0
            for index in 0..<petal_block_reserved(block) {
                if petal_slot_settle(petal_block_flag(block, index)) != 0 {
                    CallbackBlock<Value>.callback(block, Int(index)).move().invoke(from: self, kind: kind)
                } else {
                    stragglers += 1
                }
            }
            if petal_block_finish(block, stragglers) != 0 { petal_block_free(block) }
        }
    }
}

/// A callback for a resolved future, deferred by the trampoline.
@usableFromInline
struct DeferredCallback<Value>: TrampolineWork {
    @usableFromInline
    let storage: FutureStorage<Value>
    @usableFromInline
    let callback: Callback<Value>
    @usableFromInline
    let kind: OutcomeKind

    @inlinable
    init(storage: FutureStorage<Value>, callback: Callback<Value>, kind: OutcomeKind) {
        self.storage = storage
        self.callback = callback
        self.kind = kind
    }

    @inlinable
    func run() { callback.invoke(from: storage, kind: kind) }
}

/// The waiters a publish took, deferred by the trampoline.
@usableFromInline
struct DeferredWaiters<Value>: TrampolineWork {
    @usableFromInline
    let storage: FutureStorage<Value>
    @usableFromInline
    let taken: petal_word
    @usableFromInline
    let kind: OutcomeKind

    @inlinable
    init(storage: FutureStorage<Value>, taken: petal_word, kind: OutcomeKind) {
        self.storage = storage
        self.taken = taken
        self.kind = kind
    }

    @inlinable
    func run() { storage.runWaiters(taken, kind: kind) }
}

/// The callbacks of a storage freed undelivered, on their way to release (see
/// `FutureStorage.freeUndelivered`). Confined to the freeing thread.
final class UndeliveredCallbacks<Value> {
    var callbacks: [Callback<Value>] = []
}
