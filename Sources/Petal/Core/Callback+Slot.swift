import CPetal

/// How a callback is kept in a slot (the future's inline slot, or a waiter block's): its payload
/// in the slot's two words, and which case it is in the slot's commit flag, as the committer's
/// tag (`petal_slot_commit_tagged`).
///
/// Why not the enum itself: `Callback` is two words and a tag byte, 24 bytes a slot, and no case
/// has spare bits to hide the tag in (a closure's function pointer has none). With the tag in
/// the flag, which the subscriber writes anyway, a slot is 16 bytes and a block of seven three
/// cache lines (`PETAL_BLOCK_BYTES`) instead of four, which is what a drain reads per callback beyond
/// its own work.
extension Callback {
    /// A callback split for a slot: its payload's two words, which own what the payload holds
    /// (a closure's context, a reference), and its case. Trivially copyable, so a subscriber
    /// whose slot was skipped just writes the words again; every `Stored` made is taken back
    /// exactly once: from the slot its commit succeeded in (by the deliverer, or by the deinit
    /// of a storage that never resolved), or by ``callback()`` when the future resolved first.
    @usableFromInline
    struct Stored {
        @usableFromInline
        var words: (UInt, UInt)
        @usableFromInline
        let tag: UInt32

        @inlinable
        init(words: (UInt, UInt), tag: UInt32) {
            self.words = words
            self.tag = tag
        }

        /// Writes the words into `slot`; the callback is there once its flag is committed.
        @inlinable
        func write(to slot: UnsafeMutableRawPointer) {
            slot.storeBytes(of: words, as: (UInt, UInt).self)
        }

        /// The callback, taken back from the words (for a future that resolved meanwhile).
        @inlinable
        consuming func callback() -> Callback<Value> {
            let tag = tag
            return _withUnprotectedUnsafeMutablePointer(to: &words) { Callback.take(from: $0, tag: tag) }
        }
    }

    /// The bytes of a slot: two words, whatever `Value`.
    @inlinable
    static var slotSize: Int { MemoryLayout<(UInt, UInt)>.size }

    /// This callback split for a slot. Inlined where the callback is made, so the case is known
    /// and the switch folds away.
    @inlinable
    @inline(__always)
    consuming func stored() -> Stored {
        switch consume self {
        case .resolved(let body): return Self.put(Resolved(body: body), tag: CallbackTag.resolved.rawValue)
        case .fulfilled(let body): return Self.put(Fulfilled(body: body), tag: CallbackTag.fulfilled.rawValue)
        case .rejected(let body): return Self.put(Failed(body: body), tag: CallbackTag.rejected.rawValue)
        case .cancelled(let body): return Self.put(Cancelled(body: body), tag: CallbackTag.cancelled.rawValue)
        case .anyError(let body): return Self.put(Failed(body: body), tag: CallbackTag.anyError.rawValue)
        case .step(let receive): return Self.put(Step(receive: receive), tag: CallbackTag.step.rawValue)
        case .forward(let target): return Self.put(target, tag: CallbackTag.forward.rawValue)
        case .promise(let promise): return Self.put(promise, tag: CallbackTag.promise.rawValue)
        case .input(let receiver, let index): return Self.put((receiver, index), tag: CallbackTag.input.rawValue)
        }
    }

    /// Moves the callback stored with `tag` out of `slot` (which is uninitialised after).
    @inlinable
    @inline(__always)
    static func take(from slot: UnsafeMutableRawPointer, tag: UInt32) -> Callback<Value> {
        switch tag {
        case CallbackTag.resolved.rawValue: return .resolved((take(from: slot) as Resolved).body)
        case CallbackTag.fulfilled.rawValue: return .fulfilled((take(from: slot) as Fulfilled).body)
        case CallbackTag.rejected.rawValue: return .rejected((take(from: slot) as Failed).body)
        case CallbackTag.cancelled.rawValue: return .cancelled((take(from: slot) as Cancelled).body)
        case CallbackTag.anyError.rawValue: return .anyError((take(from: slot) as Failed).body)
        case CallbackTag.step.rawValue: return .step((take(from: slot) as Step).receive)
        case CallbackTag.forward.rawValue: return .forward(take(from: slot))
        case CallbackTag.promise.rawValue: return .promise(take(from: slot))
        default:  // CallbackTag.input
            let (receiver, index): (InputReceiver<Value>, Int) = take(from: slot)
            return .input(receiver, index: index)
        }
    }

    /// Moves the callback committed in `slot` with `flag` (`petal_slot_settle_tagged`'s answer,
    /// not 0) out of it and calls it with `storage`'s outcome (of `kind`, already published):
    /// what ``invoke(from:kind:)`` does for the callback, its chained futures first, straight
    /// from the tag (building the callback and calling ``invoke(from:kind:)`` switched twice:
    /// create+subscribe+fulfil cost 39 instructions more in callgrind, a chain link 21).
    @inlinable
    @inline(__always)
    static func invoke(
        storedIn slot: UnsafeMutableRawPointer, flag: UInt32, from storage: FutureStorage<Value>, kind: OutcomeKind
    ) {
        // `whenFulfilled`'s case, the commonest observer, by one comparison of the whole flag
        // ahead of the jump table over the tags (a hot promise's drain: 12 instructions less a
        // callback in callgrind).
        if flag == petal_slot_ready(CallbackTag.fulfilled.rawValue) {
            return deliverFulfilled(storedIn: slot, from: storage, kind: kind)
        }
        let tag = petal_slot_tag(flag)
        switch tag {
        case CallbackTag.step.rawValue: (take(from: slot) as Step).receive(storage, kind)
        case CallbackTag.forward.rawValue:
            (take(from: slot) as FutureStorage<Value>).resolve(copying: storage, kind: kind)
        default: take(from: slot, tag: tag).invoke(reading: PublishedOutcome(storage, kind: kind))
        }
    }

    /// Calls the `.fulfilled` closure stored in `slot` with `storage`'s value if `kind` is
    /// `.fulfilled`; the slot is uninitialised after.
    ///
    /// A closure that captures nothing has a null context (a thick closure is its function and
    /// its context, in that order): it is called from its words, with no context to release,
    /// which moving it out would end with (a call into the runtime, 9 instructions, per
    /// callback). With a context, the one test is all this adds. Were the order the other way
    /// round, the word tested would be the function, never 0, and every closure would be moved.
    @inlinable
    @inline(__always)
    static func deliverFulfilled(
        storedIn slot: UnsafeMutableRawPointer, from storage: FutureStorage<Value>, kind: OutcomeKind
    ) {
        // The call is written in each branch on purpose: one call after the branches, on a
        // closure either of them made, compiled to a retain before it and two releases after.
        if slot.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) == 0 {
            let words = (slot.load(as: UInt.self), UInt(0))
            let body = unsafeBitCast(words, to: Fulfilled.self).body
            if kind == .fulfilled { body(storage.value) }
        } else {
            let body = (take(from: slot) as Fulfilled).body
            if kind == .fulfilled { body(storage.value) }
        }
    }

    /// One case's payload, moved into two words.
    @inlinable
    @inline(__always)
    static func put<Payload>(_ payload: consuming Payload, tag: UInt32) -> Stored {
        assert(MemoryLayout<Payload>.size <= slotSize)
        assert(MemoryLayout<Payload>.alignment <= MemoryLayout<UInt>.alignment)
        var words: (UInt, UInt) = (0, 0)
        // Moved in through an optional: a closure can only borrow a parameter, and a copy would
        // cost a retain (and the parameter's release after).
        var moving = Optional(payload)
        // Unprotected: the address goes no further than this initialisation, of a type that
        // fits (asserted above), so a stack protector would only add its canary to every
        // subscribe (five instructions, in the function that makes the callback).
        _withUnprotectedUnsafeMutablePointer(to: &words) {
            _ = UnsafeMutableRawPointer($0).initializeMemory(as: Payload.self, to: moving.take().unsafelyUnwrapped)
        }
        return Stored(words: words, tag: tag)
    }

    /// Moves one case's payload out.
    @inlinable
    @inline(__always)
    static func take<Payload>(from slot: UnsafeMutableRawPointer) -> Payload {
        slot.assumingMemoryBound(to: Payload.self).move()
    }

    // Each closure case's payload as a struct's field. A field keeps the closure at the
    // abstraction its case has; a closure stored as a generic payload itself would be
    // re-abstracted on the way in and out (a thunk around it: an allocation per store).

    /// The payload of `.resolved`.
    @usableFromInline
    struct Resolved {
        @usableFromInline
        let body: @Sendable (Outcome<Value>) -> Void

        @inlinable
        init(body: @escaping @Sendable (Outcome<Value>) -> Void) { self.body = body }
    }

    /// The payload of `.fulfilled`.
    @usableFromInline
    struct Fulfilled {
        @usableFromInline
        let body: @Sendable (Value) -> Void

        @inlinable
        init(body: @escaping @Sendable (Value) -> Void) { self.body = body }
    }

    /// The payload of `.rejected` and `.anyError` (the tag tells them apart).
    @usableFromInline
    struct Failed {
        @usableFromInline
        let body: @Sendable (any Error) -> Void

        @inlinable
        init(body: @escaping @Sendable (any Error) -> Void) { self.body = body }
    }

    /// The payload of `.cancelled`.
    @usableFromInline
    struct Cancelled {
        @usableFromInline
        let body: @Sendable ((any Error)?) -> Void

        @inlinable
        init(body: @escaping @Sendable ((any Error)?) -> Void) { self.body = body }
    }

    /// The payload of `.step`.
    @usableFromInline
    struct Step {
        @usableFromInline
        let receive: (FutureStorage<Value>, OutcomeKind) -> Void

        @inlinable
        init(receive: @escaping (FutureStorage<Value>, OutcomeKind) -> Void) { self.receive = receive }
    }
}

/// A callback's case, as its slot's commit flag records it (`rawValue`, one per case, in
/// declaration order).
@usableFromInline
enum CallbackTag: UInt32 {
    case resolved, fulfilled, rejected, cancelled, anyError, step, forward, promise, input
}
