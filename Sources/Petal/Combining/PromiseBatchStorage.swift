import CPetal

/// The slots of a ``PromiseBatch``: a claim word, a stop and a value each, the count of slots
/// still to fulfil, and the flag that `all` was given up on, in two allocations beside this
/// object, moved by compare-and-swap with no lock.
///
/// The protocol (`Tests/Model/petal_batch.pml`, tied to these functions by
/// `Scripts/check-model-conformance`): a slot's word leaves the open states (`pending`, `arming`,
/// `armed`) once, by the compare-and-swap of a fulfil, a failure or a stop (``claim(_:as:)``,
/// ``stopIfArmed(_:)``). A fulfil that wins writes the value, then counts down; the count that
/// reaches zero moves every value out and fulfils `all`. A failure that wins cancels `all`;
/// whoever decides `all` other than by the last fulfil (a failure, or a consumer's request)
/// raises the flag, then stops every slot that holds a stop (``stopPending()``).
///
/// A slot's stop has a cell of its own: a registration moves the slot from `pending` to `arming`
/// (the cell is its to write), writes the cell, and moves it on to `armed`, which publishes the
/// cell to whoever moves the slot out of `armed`: a stop runs it, a fulfil or a failure drops it.
/// A fulfil or a failure that claims an `arming` slot leaves the cell to the registration, whose
/// move to `armed` then fails. A registration that armed its slot looks at the flag after: it and
/// the sweep of ``stopPending()``, which raises the flag before it looks at the slots, each see
/// the other's move (both are FULL), so no stop is left behind a request.
///
/// Why no lock: the example service's fan-out registers a stop for every backend call, and
/// under the mutex that held the list of stops each registration cost about 125 instructions
/// and two atomics (callgrind; the registration is now two compare-and-swaps), and the list
/// one allocation a batch.
///
/// Not `ManagedBuffer`: the words must stay at one address for the C atomics, and the values'
/// part starts wherever `Value`'s alignment puts it.
@usableFromInline
final class PromiseBatchStorage<Value>: @unchecked Sendable {
    // @unchecked: a slot's value is written once, by the thread whose compare-and-swap claimed
    // the slot for a fulfil, before that thread's (FULL) count down; it is read by the thread
    // whose count down reached zero, which sees every earlier count down and so every value
    // (each count down is a FULL compare-and-swap on the same word), or by the deinit of a batch
    // nobody holds. A slot's stop cell is written by the registration that moved the slot to
    // `arming`, before its (FULL) move to `armed`, and read or dropped only by the thread whose
    // compare-and-swap moved the slot out of `armed` (or by the registration itself, when it
    // finds its slot claimed), or by the deinit.

    /// The number of slots.
    @usableFromInline
    let count: Int

    /// The slots' claim words, then the batch's stop's (`slotWords + count`: see
    /// ``addBatchStop(_:)``), the count still to fulfil (`slotWords + count + 1`), the flag
    /// (`slotWords + count + 2`), the stops' cells' address (`slotWords + count + 3`) and the
    /// arrivals' cursor (`slotWords + count + 4`).
    @usableFromInline
    let slotWords: UnsafeMutablePointer<petal_atomic_word>

    /// Slots still to fulfil: zero once every slot is fulfilled, and then the values are gone.
    @usableFromInline
    let remaining: UnsafeMutablePointer<petal_atomic_word>

    /// Nonzero once `all` was given up on: a stop registered later runs at once.
    private let requested: UnsafeMutablePointer<petal_atomic_word>

    /// The address of the slots' stops' cells, 0 until the first registration makes them (see
    /// ``installCells()``); each cell is initialised only while its slot is `armed` (or
    /// `arming`, by the registration that writes it).
    @usableFromInline
    let cellsWord: UnsafeMutablePointer<petal_atomic_word>

    /// The next slot an arrival takes (``PromiseBatch/fulfilNext(with:)``): a cursor moved by a
    /// locked add alone, past `count` once every slot was handed out.
    @usableFromInline
    let arrivals: UnsafeMutablePointer<petal_atomic_word>

    /// The batch's own stop's cell, in the slots' allocation (a batch that registers no other
    /// stop makes no cells), initialised only while slot `count` is `armed` (or `arming`).
    private let batchStopCell: UnsafeMutablePointer<BatchSlotStop>

    /// The values, each initialised only once its slot is claimed for a fulfil.
    @usableFromInline
    let values: UnsafeMutablePointer<Value>

    /// A slot nobody has resolved, with no stop.
    @usableFromInline static var pending: petal_word { 0 }
    /// A slot claimed by a fulfil: its value is written (or about to be).
    @usableFromInline static var fulfilled: petal_word { 1 }
    /// A slot claimed by a rejection or a cancellation.
    @usableFromInline static var failed: petal_word { 2 }
    /// A slot claimed by its stop, after `all` was given up on: what its producer sends later was
    /// on its way, and is not a repeat.
    @usableFromInline static var stopped: petal_word { 3 }
    /// A pending slot whose stop is being written, by the registration that moved it here.
    @usableFromInline static var arming: petal_word { 4 }
    /// A pending slot holding its stop.
    @usableFromInline static var armed: petal_word { 5 }

    /// Makes `count` pending slots: words and values in one allocation; the stops' cells come
    /// with the first stop.
    @usableFromInline
    init(count: Int) {
        self.count = count
        let layout = Self.layout(count: count)
        let base = UnsafeMutableRawPointer.allocate(byteCount: layout.bytes, alignment: layout.alignment)
        slotWords = base.bindMemory(to: petal_atomic_word.self, capacity: count + 5)
        slotWords.initialize(repeating: petal_atomic_word(value: Self.pending), count: count + 1)
        remaining = slotWords + count + 1
        remaining.initialize(to: petal_atomic_word(value: petal_word(count)))
        requested = slotWords + count + 2
        requested.initialize(to: petal_atomic_word(value: 0))
        cellsWord = slotWords + count + 3
        cellsWord.initialize(to: petal_atomic_word(value: 0))
        arrivals = slotWords + count + 4
        arrivals.initialize(to: petal_atomic_word(value: 0))
        batchStopCell = (base + layout.batchStopCell).bindMemory(to: BatchSlotStop.self, capacity: 1)
        values = (base + layout.values).bindMemory(to: Value.self, capacity: count)
    }

    /// Where the values start in the allocation, its size and alignment.
    ///
    /// The stops' cells are an allocation of their own, made by the first stop: with them here,
    /// the block of a batch of 32 `Int`s passed 1,024 bytes, past glibc's thread cache and small
    /// bins, and every batch paid for its large-block path and the consolidation of the fast
    /// bins it runs first (callgrind, the example service's fan-out: about 200 instructions a
    /// call); made with the batch, they were an allocation more for every batch that registers
    /// no stop (the suite's fan-out: three requests in four).
    private static func layout(count: Int) -> (batchStopCell: Int, values: Int, bytes: Int, alignment: Int) {
        let alignment = max(
            MemoryLayout<petal_atomic_word>.alignment, MemoryLayout<BatchSlotStop>.alignment,
            MemoryLayout<Value>.alignment)
        let words = (count + 5) * MemoryLayout<petal_atomic_word>.stride
        let cell = (words + MemoryLayout<BatchSlotStop>.alignment - 1) & ~(MemoryLayout<BatchSlotStop>.alignment - 1)
        let end = cell + MemoryLayout<BatchSlotStop>.stride
        let values = (end + MemoryLayout<Value>.alignment - 1) & ~(MemoryLayout<Value>.alignment - 1)
        return (cell, values, values + count * MemoryLayout<Value>.stride, alignment)
    }

    deinit {
        // Nobody else holds the batch: the acquire loads see every claim, stop and value written.
        // A count at zero means the values were moved into `all`'s array.
        let valuesLeft = petal_atomic_word_load(remaining) != 0
        let cells = UnsafeMutablePointer<BatchSlotStop>(bitPattern: UInt(petal_atomic_word_load(cellsWord)))
        for index in 0..<count {
            let word = petal_atomic_word_load(slotWords + index)
            if word == Self.armed { (cells.unsafelyUnwrapped + index).deinitialize(count: 1) }
            if valuesLeft && word == Self.fulfilled { (values + index).deinitialize(count: 1) }
        }
        if petal_atomic_word_load(slotWords + count) == Self.armed { batchStopCell.deinitialize(count: 1) }
        cells?.deallocate()
        UnsafeMutableRawPointer(slotWords).deallocate()
    }

    /// Whether `word` is a slot's that nobody has claimed: pending, with or without a stop.
    @inlinable
    static func isOpen(_ word: petal_word) -> Bool {
        word == pending || word > stopped
    }

    /// What slot `index` holds as the batch describes it: an open slot is `pending`.
    func state(_ index: Int) -> petal_word {
        let word = petal_atomic_word_load(slotWords + index)
        return Self.isOpen(word) ? Self.pending : word
    }

    /// The one compare-and-swap of a slot's word: moves slot `index` from `seen` to `next`, or
    /// loads what it holds into `seen`.
    @inlinable
    func moveSlot(_ index: Int, from seen: inout petal_word, to next: petal_word) -> Bool {
        // FULL: a move to `armed` publishes the stop's cell, a move out of it takes the cell;
        // a registration's move is ordered before its look at the flag (see `addStop`).
        petal_atomic_word_exchange(slotWords + index, &seen, next) != 0
    }

    /// Moves slot `index` from an open state to `state`; returns the state it was in (`pending`
    /// if this call claimed it). A claim of an `armed` slot drops its stop, which can no longer
    /// be needed.
    @inlinable
    @inline(__always)
    func claim(_ index: Int, as state: petal_word) -> petal_word {
        // ACQUIRE load first: a slot with a stop is claimed in one compare-and-swap, not two.
        var seen = petal_atomic_word_load(slotWords + index)
        while Self.isOpen(seen) {
            if moveSlot(index, from: &seen, to: state) {
                if seen == Self.armed { dropStop(index) }
                return Self.pending
            }
        }
        return seen
    }

    /// The stops' cells, once a registration made them: read by a thread that moved a slot out
    /// of `armed`, or by the registration that armed it.
    @usableFromInline
    var stopCells: UnsafeMutablePointer<BatchSlotStop> {
        @inline(__always) get {
            // ACQUIRE, though the slot's move already ordered it: the cells were installed before the
            // registration's FULL move to `armed` that this thread's move or the registration saw.
            UnsafeMutablePointer(bitPattern: UInt(petal_atomic_word_load(cellsWord))).unsafelyUnwrapped
        }
    }

    /// The stops' cells for a registration: those installed, or made now by this registration if
    /// no other made them first, so that a batch that registers no stop allocates none.
    @inline(__always)
    func cellsForRegistration() -> UnsafeMutablePointer<BatchSlotStop> {
        // ACQUIRE: cells installed by another registration are seen by their address (nothing
        // written into them is read here).
        let seen = petal_atomic_word_load(cellsWord)
        return seen != 0 ? UnsafeMutablePointer(bitPattern: UInt(seen)).unsafelyUnwrapped : installCells()
    }

    /// Makes the stops' cells and installs them, unless another registration did first: two
    /// registrations racing each make cells; the first compare-and-swap installs its own, and
    /// the other frees its own and uses those (`Tests/Model/petal_batch_cells.pml`). Once a
    /// batch; not inlined.
    @inline(never)
    func installCells() -> UnsafeMutablePointer<BatchSlotStop> {
        var seen: petal_word = 0
        let made = UnsafeMutablePointer<BatchSlotStop>.allocate(capacity: count)
        // FULL: installs the cells once, before this registration's move to `armed` publishes
        // the cell it writes there.
        if petal_atomic_word_exchange(cellsWord, &seen, petal_word(UInt(bitPattern: made))) != 0 { return made }
        made.deallocate()
        return UnsafeMutablePointer(bitPattern: UInt(seen)).unsafelyUnwrapped
    }

    /// Releases slot `index`'s stop, which this thread took by moving the slot out of `armed`.
    @usableFromInline
    func dropStop(_ index: Int) {
        (stopCells + index).deinitialize(count: 1)
    }

    /// Slot `index`'s stop's cell, the batch's own (slot `count`) included, for the thread that
    /// moved the slot out of `armed`: the batch's cell is always there, a slot's once installed.
    func cell(_ index: Int) -> UnsafeMutablePointer<BatchSlotStop> {
        index == count ? batchStopCell : stopCells + index
    }

    /// Fulfils slot `index` with `value`, and `result` once it was the last; returns the state
    /// the slot was in (`pending` if this call fulfilled it).
    @inlinable
    func fulfil(_ index: Int, with value: Value, resolving result: FutureStorage<[Value]>) -> petal_word {
        let seen = claim(index, as: Self.fulfilled)
        guard seen == Self.pending else { return seen }
        (values + index).initialize(to: value)
        var left = petal_atomic_word_load(remaining)
        // FULL, and a loop only under contention: each count down publishes its slot's value
        // and sees every earlier one, so the count that reaches zero sees all the values.
        while petal_atomic_word_exchange(remaining, &left, left - 1) == 0 {}
        if left == 1 { _ = result.fulfil(with: movingValues()) }
        return Self.pending
    }

    /// Every value, moved out in slot order: by the thread whose count down reached zero, when
    /// no other thread can touch them.
    /// The slot the next arrival takes, or `nil` once every slot was handed out.
    ///
    /// Not a protocol of its own: the add hands each arrival an index no other arrival gets
    /// (it moves the cursor alone, by a locked add, never a compare-and-swap), and the arrival
    /// then claims that slot as an indexed resolver does (``claim(_:as:)``), racing the same
    /// claims, stops and registrations that `petal_batch.pml` checks for any resolver.
    @inlinable
    func nextArrival() -> Int? {
        // FULL, the one add there is; the claim that follows orders what matters.
        let index = UInt(petal_atomic_word_add(arrivals, 1))
        return index < UInt(bitPattern: count) ? Int(bitPattern: index) : nil
    }

    @usableFromInline
    func movingValues() -> [Value] {
        [Value](unsafeUninitializedCapacity: count) { buffer, initialised in
            buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: values, count: count)
            initialised = count
        }
    }

    /// Rejects or cancels slot `index`; if this call claimed it, cancels `result` with `error`
    /// as its indirect error, naming promise site `failureSite` (the first failure decides), and,
    /// if that decided it, stops the slots still pending.
    /// Returns the state the slot was in (`pending` if this call failed it).
    func fail(
        _ index: Int, error: (any Error)?, resolving result: FutureStorage<[Value]>, failureSite: UInt32
    )
        -> petal_word
    {
        let seen = claim(index, as: Self.failed)
        guard seen == Self.pending else { return seen }
        if result.fail(.cancelled, error: error, failureSite: failureSite) { stopPending() }
        return Self.pending
    }

    /// Gives slot `index` `stop`, to run once if `all` is given up on while the slot is still
    /// pending (at once, if it already was): the slot is then stopped, and never fulfilled.
    /// Returns `nil` if the slot keeps it (or ran it at once); otherwise, keeping nothing, the
    /// state that turned it away: `arming` or `armed` if the slot holds a stop already, a
    /// claimed state if the slot was claimed (its stop can never be needed).
    @usableFromInline
    func addStop(_ index: Int, _ stop: consuming @escaping @Sendable () -> Void) -> petal_word? {
        var seen = Self.pending
        // The cell is this registration's once the slot is `arming`.
        guard moveSlot(index, from: &seen, to: Self.arming) else { return seen }
        let cell = index == count ? batchStopCell : cellsForRegistration() + index
        cell.initialize(to: BatchSlotStop(stop: consume stop))
        seen = Self.arming
        guard moveSlot(index, from: &seen, to: Self.armed) else {
            // A fulfil or a failure claimed the slot meanwhile and left the cell here.
            cell.deinitialize(count: 1)
            return seen
        }
        // ACQUIRE, after the FULL move to `armed`: either this sees the flag, or the sweep that
        // follows the flag's raising sees the slot armed (see `stopPending`).
        if petal_atomic_word_load(requested) != 0 { stopIfArmed(index) }
        return nil
    }

    /// Gives the batch `stop`, to run once if `all` is given up on (at once, if it already
    /// was); `false`, keeping nothing, if the batch was given a stop before.
    ///
    /// The batch's stop is a slot's stop for slot `count`, which has no value and which no
    /// fulfil or failure claims: it leaves `pending` only by a registration, so a registration
    /// that finds it anywhere else (arming, armed, or stopped once its stop ran) is a second.
    /// Registered, swept and dropped as a slot's stop is, by the same moves; its cell is in the
    /// slots' allocation, not among the slots' cells, which it would otherwise make.
    @usableFromInline
    func addBatchStop(_ stop: consuming @escaping @Sendable () -> Void) -> Bool {
        addStop(count, consume stop) == nil
    }

    /// `all` was given up on: the flag is raised, then each slot holding its stop is stopped,
    /// once, and the batch's stop last; later registrations stop their slots at once.
    func stopPending() {
        var seen: petal_word = 0
        // FULL: the flag is raised before the sweep looks at any slot (see `addStop`); once.
        guard petal_atomic_word_exchange(requested, &seen, 1) != 0 else { return }
        for index in 0...count where petal_atomic_word_load(slotWords + index) == Self.armed {
            stopIfArmed(index)
        }
    }

    /// Stops slot `index` if it still holds its stop, and runs the stop.
    func stopIfArmed(_ index: Int) {
        var seen = Self.armed
        guard moveSlot(index, from: &seen, to: Self.stopped) else { return }
        cell(index).move().stop()
    }
}

/// A slot's stop, in its cell.
///
/// A struct, not the closure itself: a generic pointer keeps a closure at its most general
/// abstraction, so each stop stored was wrapped in a reabstraction thunk, one allocation per
/// stop (callgrind, the service's batch request: one per backend call). Outside the generic
/// storage: nested, it would depend on `Value`.
@usableFromInline
struct BatchSlotStop {
    @usableFromInline
    let stop: @Sendable () -> Void

    init(stop: @escaping @Sendable () -> Void) {
        self.stop = stop
    }
}
