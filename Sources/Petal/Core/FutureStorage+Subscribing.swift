import CPetal

/// Subscribing: the first callback takes the inline slot, later ones share waiter blocks.
extension FutureStorage {
    /// Registers `callback`; it runs once, after resolution, in subscription order. The first
    /// subscriber takes the inline slot (no allocation); later ones share waiter blocks, one
    /// allocation per `PETAL_BLOCK_SLOTS` subscribers (see `petal_cell.h` for the protocol).
    ///
    /// The callback is split for a slot where it is made (the case known, its switch folded
    /// away), then its words are written, never retained: into the slot it reserved, and again
    /// into the next if the deliverer skipped that one, so no retain or release is spent on it.
    @inlinable
    @inline(__always)
    final func subscribe(_ callback: consuming Callback<Value>) {
        subscribe(stored: callback.stored())
    }

    /// ``subscribe(_:)`` for a callback already split for a slot.
    @inlinable
    final func subscribe(stored callback: consuming Callback<Value>.Stored) {
        var reservation = petal_reservation()
        // Unprotected: its address goes only to the cell's inline C functions, which write the
        // struct's own fields, so a stack protector would only add its canary to every
        // subscribe (six instructions).
        _withUnprotectedUnsafeMutablePointer(to: &reservation) { reservation in
            // A block allocated for a push that lost its race, kept for the next attempt.
            var spare: UnsafeMutablePointer<petal_block>? = nil
            while true {
                switch petal_cell_reserve(cell, reservation) {
                case PETAL_RESERVED_INLINE:
                    callback.write(to: slot)
                    // Refused if the deliverer skipped the slot, which it then never reads: the
                    // words are still the callback's only owner, and it subscribes again.
                    if petal_slot_commit_tagged(petal_cell_slot_flag(cell), callback.tag) != 0 {
                        return discard(spare)
                    }
                case PETAL_RESERVED_SLOT:
                    let block = reservation.pointee.block.unsafelyUnwrapped
                    let index = reservation.pointee.index
                    callback.write(to: CallbackBlock<Value>.slot(block, Int(index)))
                    if petal_slot_commit_tagged(petal_block_flag(block, index), callback.tag) != 0 {
                        return discard(spare)
                    }
                    // Skipped by the deliverer: leave the block (freeing it if everyone else is
                    // done with it), and subscribe again.
                    if petal_block_leave(block) != 0 { petal_block_free(block) }
                case PETAL_NEEDS_BLOCK:
                    let block = spare ?? CallbackBlock<Value>.allocate()
                    callback.write(to: CallbackBlock<Value>.slot(block, 0))
                    petal_block_flag(block, 0).pointee = petal_slot_ready(callback.tag)  // private until pushed
                    if petal_cell_push(cell, block, reservation) != 0 { return }
                    petal_block_flag(block, 0).pointee = PETAL_SLOT_EMPTY
                    spare = block
                default:  // PETAL_ALREADY_RESOLVED
                    discard(spare)
                    return runResolved(callback.callback())
                }
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

    /// The outcome, with this thread's trampoline entered, if the future is resolved and
    /// `Context` is inline: the caller calls its closure with it at once, on this thread, then
    /// ``leaveResolved()``. Otherwise `nil`, and the caller subscribes as usual.
    ///
    /// The fast path of every observer: one acquire load, and the user's closure is called as
    /// given, so no ``Callback`` need be built (for a closure passed as a value that takes a
    /// `Value` or an `Outcome`, building one costs a reabstraction thunk: an allocation and three
    /// atomics; see `observe(_:on:)`). Deeply nested inline work still defers through the
    /// trampoline, by taking the ordinary path.
    ///
    /// Two calls, not one taking a closure to run: an observer's closure is a `consuming`
    /// parameter, and a closure capturing it copied it before the branch, a retain and a
    /// release of its context on every subscription, resolved or not (callgrind, a callback
    /// capturing three values: a hot promise's subscriber 7.92 -> 6.92 atomics).
    @inlinable
    @inline(__always)
    final func enterIfResolved<Context: ExecutionContext>(on _: Context) -> PublishedOutcome<Value>? {
        guard Context.self == InlineExecutionContext.self else { return nil }
        let word = petal_cell_load(cell)
        guard petal_word_is_resolved(word) != 0, petal_trampoline_enter_fast() != 0 else { return nil }
        return PublishedOutcome(self, kind: OutcomeKind(publishedIn: cell))
    }

    /// Leaves the trampoline that ``enterIfResolved(on:)`` entered.
    @inlinable
    @inline(__always)
    final func leaveResolved() { petal_trampoline_leave_fast() }

    // Inlinable (though never inlined) so that it is specialised with its caller: the
    // deferred waiters then run specialised code too.
    @inlinable
    @inline(never)
    final func runResolvedLater(_ callback: Callback<Value>, kind: OutcomeKind) {
        DeferredBlock.enqueue(DeferredCallback(storage: self, callback: callback, kind: kind))
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
