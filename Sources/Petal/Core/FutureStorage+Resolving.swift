import CPetal

/// Resolving: one claim wins, the outcome is written, published, and the waiters run in order.
extension FutureStorage {
    /// Fulfils with `value` unless already resolved (or being resolved); returns whether it did.
    @inlinable
    @discardableResult
    final func fulfil(with value: Value) -> Bool {
        let taken = petal_cell_claim_taking(cell)
        guard petal_word_won_claim(taken) != 0 else { return false }
        withUnsafeMutablePointerToElements { $0.initialize(to: value) }
        publish(.fulfilled, claimed: taken)
        return true
    }

    /// Rejects or cancels with `error` unless already resolved; returns whether it did.
    @inlinable
    @discardableResult
    final func fail(_ kind: OutcomeKind, error: (any Error)?) -> Bool {
        let taken = petal_cell_claim_taking(cell)
        guard petal_word_won_claim(taken) != 0 else { return false }
        self.error.initialize(to: error)
        publish(kind, claimed: taken)
        return true
    }

    /// Resolves with `outcome` unless already resolved; returns whether it did.
    @inlinable
    @discardableResult
    final func resolve(with outcome: Outcome<Value>) -> Bool {
        if case .fulfilled(let value) = outcome { return fulfil(with: value) }
        return fail(outcome.kind, error: outcome.error)
    }

    /// Resolves with the outcome `source` published with `kind`: a mirror, for a future whose
    /// own work is `source` (a future returned by a chaining closure, or a promise resolved from
    /// another future). Call only after an acquire load saw `source` resolved. A failure goes on
    /// here, so `source`'s is observed, and this one names the same promise site.
    @inlinable
    @discardableResult
    final func resolve(copying source: FutureStorage<Value>, kind: OutcomeKind) -> Bool {
        switch kind {
        case .fulfilled: return fulfil(with: source.value)
        case .rejected, .cancelled: return fail(kind, error: source.observedError, failureSite: source.failureSite)
        }
    }

    /// Resolves `result` as `source` published its outcome with `kind` or, without a `source`,
    /// with `kind` and `error`, unless it is resolved already: how a retrying or hedged call
    /// ends. A function of its own, so that the caller of `Future.hedging` and
    /// `Future.retrying`, whose code is specialised for `Value`, hands the loop (which is not) a
    /// closure over it: run from the loop itself, the result's waiters would look the metadata
    /// of `Outcome<Value>` and of a chain step's payload up at run time, about 330 instructions
    /// each, on every call (see `AttemptLoop.begin`).
    @inlinable
    static func settle(
        _ result: FutureStorage<Value>, copying source: FutureStorage<Value>?, kind: OutcomeKind,
        error: (any Error)?
    ) {
        if let source {
            result.resolve(copying: source, kind: kind)
        } else {
            result.fail(kind, error: error)
        }
    }

    /// ``settle(_:copying:kind:error:)`` as a closure.
    @usableFromInline
    typealias Settle = @Sendable (FutureStorage<Value>, FutureStorage<Value>?, OutcomeKind, (any Error)?) -> Void

    /// Subscribes `receive` to `storage` as a chain step does (handed the storage and its
    /// outcome's kind): for a loop, from its caller's specialised code, as `settle` is. Made
    /// in the loop, unspecialised, the step's payload and an optional of it were looked up at
    /// run time on every subscription (callgrind: about 650 instructions a hedged call).
    @inlinable
    static func subscribeStep(
        _ storage: FutureStorage<Value>, _ receive: consuming @escaping (FutureStorage<Value>, OutcomeKind) -> Void
    ) {
        storage.subscribe(.step(consume receive))
    }

    /// ``subscribeStep(_:_:)`` as a closure.
    @usableFromInline
    typealias SubscribeStep =
        @Sendable (
            FutureStorage<Value>, consuming @escaping (FutureStorage<Value>, OutcomeKind) -> Void
        ) -> Void

    /// Cancels because `upstream` failed (rejected or cancelled): the one failure rule, which
    /// carries the upstream's error, or its indirect error, down as this future's indirect error.
    /// The upstream's failure is observed (it goes on here), and this future's failure names the
    /// same promise site: if nobody observes it, it is reported here, at the end of the chain.
    @inlinable
    @discardableResult
    final func cancel<Upstream>(following upstream: FutureStorage<Upstream>) -> Bool {
        fail(.cancelled, error: upstream.observedError, failureSite: upstream.failureSite)
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

    /// Publishes the outcome written after a won claim (`claimed`, the word the claim replaced),
    /// then runs the waiters taken, stack-safely.
    ///
    /// A claim that found waiters took them already (`petal_cell_claim_taking`): the outcome is
    /// published by a store, and a resolution with subscribers makes two read-modify-writes of
    /// the word (that claim, and the delivery's last `take_more`) instead of three. Without
    /// waiters, publish's compare-and-swap makes the cell RESOLVED, or takes those who came
    /// meanwhile.
    @inlinable
    final func publish(_ kind: OutcomeKind, claimed: petal_word) {
        let taken: petal_word
        if petal_word_has_waiters(claimed) != 0 {
            petal_cell_mark_written(cell, kind.rawValue)
            taken = claimed
        } else {
            taken = petal_cell_publish(cell, kind.rawValue)
        }
        // A resolved future needs no cancellation actions: its attachment lets go of them (and
        // what they hold) now. One load of a word in the cache line just written, 0 unless
        // someone used cancellation. Ordering: this load follows the FULL compare-and-swap that
        // gave the word its outcome bit (the claim that took the waiters, or publish), and an
        // attachment that adds an action loads the cell after its own FULL push and looks for
        // that bit: one of the two sees the other, so an action is never left behind by both.
        // A slot that only says requests may pass (PETAL_CANCELLATION_MAY_PASS) holds nothing.
        let attachment = petal_atomic_word_load(cancellationSlot)
        if attachment > petal_word(PETAL_CANCELLATION_MAY_PASS) { petal_swift_attachment_resolved(attachment) }
        // Nobody subscribed: the cell is RESOLVED already and there is nothing to run, but
        // perhaps threads or tasks to wake (one bit of a word in a register, set only by waits
        // that found the future pending).
        if petal_word_has_waiters(taken) == 0 {
            if petal_word_has_parked(taken) != 0 { petal_swift_unpark(cell) }
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
        if petal_word_includes_inline(taken) != 0 {
            let flag = petal_slot_settle_tagged(petal_cell_slot_flag(cell))
            if flag != 0 { Callback.invoke(storedIn: slot, flag: flag, from: self, kind: kind) }
        }
        if petal_word_list(taken) != nil { run(taken, kind: kind) }
        // Ask for more every time, even after an inline-only batch: only take_more can close the
        // cell (DELIVERING -> RESOLVED), and late subscribers queue until it does.
        while true {
            let more = petal_cell_take_more(cell)
            if petal_word_list(more) == nil {
                // RESOLVED: wake the waits, after every callback subscribed before them.
                if petal_word_has_parked(more) != 0 { petal_swift_unpark(cell) }
                return
            }
            run(more, kind: kind)
        }
    }

    /// Settles and runs the reserved slots of a taken word's blocks, oldest first, and frees
    /// each block once every party is done with it: all at the end, so that the blocks of each
    /// subscriber's thread go back to it together (`petal_block_free_list`).
    @inlinable
    final func run(_ taken: petal_word, kind: OutcomeKind) {
        var next = petal_blocks_in_order(taken)
        var done: UnsafeMutablePointer<petal_block>? = nil
        while let block = next {
            next = block.pointee.next  // before the link is reused for `done`
            var stragglers: UInt32 = 0
            for index in 0..<petal_block_reserved(block) {
                let flag = petal_slot_settle_tagged(petal_block_flag(block, index))
                if flag != 0 {
                    let place = CallbackBlock<Value>.slot(block, Int(index))
                    Callback.invoke(storedIn: place, flag: flag, from: self, kind: kind)
                } else {
                    stragglers += 1
                }
            }
            if petal_block_finish(block, stragglers) != 0 {
                block.pointee.next = done
                done = block
            }
        }
        if done != nil { petal_block_free_list(done) }
    }
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
