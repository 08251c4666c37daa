import CPetal

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
/// or ordered by the cell protocol (see `petal_cell.h`): the outcome is written by the one claimer
/// before its publish, the slot by the one reserver before its release commit, and both are read
/// only after an acquire of the word.
///
/// Not final: a chained future is a subclass (Chaining declares it) that keeps its step in extra tail
/// space after the value, so a chain step is one allocation. Every member is `final` so calls
/// stay direct.
@usableFromInline
class FutureStorage<Value>: ManagedBuffer<FutureHeader, Value> {

    /// A pending storage with no waiters.
    @inlinable
    static func makePending() -> FutureStorage<Value> {
        checkLayout()
        return unsafeDowncast(
            create(minimumCapacity: outcomeCapacity) { _ in FutureHeader(resolvedAs: nil) },
            to: FutureStorage<Value>.self
        )
    }

    /// A storage that is resolved from the start: no atomics, as nothing can observe it yet.
    @inlinable
    static func makeResolved(_ outcome: Outcome<Value>) -> FutureStorage<Value> {
        checkLayout()
        let kind = outcome.kind
        let storage = unsafeDowncast(
            create(minimumCapacity: outcomeCapacity) { _ in FutureHeader(resolvedAs: kind) },
            to: FutureStorage<Value>.self
        )
        if case .fulfilled(let value) = outcome {
            storage.withUnsafeMutablePointerToElements { $0.initialize(to: value) }
        } else {
            storage.error.initialize(to: outcome.error)
        }
        return storage
    }

    deinit {
        // The header's address once: in this unspecialised code each `cell` or
        // `cancellationSlot` computes it again through run-time metadata.
        let header = headerPointer
        let cell = petal_future_header_cell(header)
        // Acquire: the fulfilment that initialised the value happens before its destruction.
        let word = petal_cell_load(cell)
        // The attachment, for the few futures that have one (one load for the rest; a slot
        // that only says requests may pass holds nothing).
        if petal_atomic_word_load(petal_future_header_cancellation(header)) > petal_word(PETAL_CANCELLATION_MAY_PASS) {
            releaseAttachment()
        }
        guard petal_word_has_outcome(word) != 0 else { return freeUndelivered(word) }
        // The header is trivial: what the tail holds goes by hand. The error's type is
        // concrete, so releasing it needs no metadata.
        if OutcomeKind(publishedIn: cell) != .fulfilled { return releaseFailure() }
        // A trivial value needs no destruction, and checking costs this generic code no
        // metadata look-up, unlike the destruction.
        guard !_isPOD(Value.self) else { return }
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) }
    }

    /// Lets go of the attachment in the header's cancellation slot: a retained Swift object of
    /// a floor above Core (Cancellation's record), released without Core knowing its type.
    @usableFromInline
    @inline(never)
    final func releaseAttachment() {
        let address = petal_atomic_word_load(cancellationSlot)
        Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: UInt(address)).unsafelyUnwrapped).release()
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
        let inlineFlag = petal_cell_slot_flag(cell).pointee
        if petal_slot_is_ready(inlineFlag) != 0 {
            doomed.callbacks.append(Callback.take(from: slot, tag: petal_slot_tag(inlineFlag)))
        }
        var next = petal_blocks_in_order(word)
        while let block = next {
            next = block.pointee.next
            for index in 0..<petal_block_reserved(block) {
                let flag = petal_block_flag(block, index).pointee
                if petal_slot_is_ready(flag) != 0 {
                    let place = CallbackBlock<Value>.slot(block, Int(index))
                    doomed.callbacks.append(Callback.take(from: place, tag: petal_slot_tag(flag)))
                }
            }
            petal_block_free(block)
        }
        guard !doomed.callbacks.isEmpty else { return }
        Trampoline.run { doomed.callbacks.removeAll() }
    }

    // MARK: Reading

    /// The value; call only after an acquire load of the word saw it fulfilled.
    @inlinable
    final var value: Value {
        withUnsafeMutablePointerToElements { $0.pointee }
    }

    /// The outcome; call only after an acquire load of the word saw it resolved with `kind`.
    /// Handing out a failure observes it (see ``observedError``).
    @inlinable
    final func outcome(kind: OutcomeKind) -> Outcome<Value> {
        switch kind {
        case .fulfilled:
            return .fulfilled(withUnsafeMutablePointerToElements { $0.pointee })
        case .rejected:
            return .rejected(observedError.unsafelyUnwrapped)
        case .cancelled:
            return .cancelled(indirectError: observedError)
        }
    }

    /// The outcome, or `nil` while pending (including while a resolver is writing it).
    @inlinable
    final func peek() -> Outcome<Value>? {
        let cell = self.cell
        guard petal_cell_outcome_visible(cell, petal_cell_load(cell)) != 0 else { return nil }
        return outcome(kind: OutcomeKind(publishedIn: cell))
    }

    /// The outcome as it stands, for a description: `nil` while pending (including while a
    /// resolver is writing it). One acquire load of the word; the value or the error is read
    /// only when that load saw an outcome, and the error is read without marking the failure
    /// observed (``observedError``), so that describing a future in a log or a debugger changes
    /// nothing about it. Out of line: descriptions are never on a hot path (a circuit breaker
    /// reads a rejection's error with it, only for rejections).
    @usableFromInline
    final func snapshot() -> Outcome<Value>? {
        let cell = self.cell
        guard petal_cell_outcome_visible(cell, petal_cell_load(cell)) != 0 else { return nil }
        switch OutcomeKind(publishedIn: cell) {
        case .fulfilled: return .fulfilled(value)
        case .rejected: return .rejected(error.pointee.unsafelyUnwrapped)
        case .cancelled: return .cancelled(indirectError: error.pointee)
        }
    }

    /// Whether callbacks wait on this unresolved future (for tests: it says whether a
    /// combinator subscribed to an input).
    final var hasWaiters: Bool {
        let word = petal_cell_load(cell)
        return petal_word_has_outcome(word) == 0 && petal_word_has_waiters(word) != 0
    }

    /// Whether the outcome may be read: RESOLVED, or being delivered with the outcome written
    /// (a claim that took the waiters makes the word DELIVERING before its resolver writes it).
    @inlinable
    final var isResolved: Bool {
        let cell = self.cell  // once: in unspecialised code each access goes through metadata
        return petal_cell_outcome_visible(cell, petal_cell_load(cell)) != 0
    }

    /// Whether a resolver has won the claim, its outcome written or not: what a dropped
    /// producer asks before it cancels the future (its own claim would lose). One load.
    @inlinable
    final var isClaimed: Bool {
        petal_word_is_claimed(petal_cell_load(cell)) != 0
    }

    /// Whether a resolver has given the word its outcome bit (DELIVERING or RESOLVED), written
    /// or not: the bit whose compare-and-swap is followed by the resolver's load of the
    /// cancellation slot (see ``publish(_:claimed:)``).
    @inlinable
    final var hasOutcomeBit: Bool {
        petal_word_has_outcome(petal_cell_load(cell)) != 0
    }
}

/// The callbacks of a storage freed undelivered, on their way to release (see
/// `FutureStorage.freeUndelivered`). Confined to the freeing thread.
final class UndeliveredCallbacks<Value> {
    var callbacks: [Callback<Value>] = []
}
