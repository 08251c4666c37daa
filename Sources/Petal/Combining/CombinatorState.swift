import CPetal

/// The state one combinator call shares among the callbacks it subscribes to its inputs: one
/// atomic word, the combined future's storage, and a tail holding what the inputs contributed.
///
/// Why it exists: a combinator must decide its result exactly once however many of its inputs
/// resolve at the same moment on different threads, allocate nothing per input beyond the
/// callback itself, and let go of what it holds (the inputs' values, the combined future) as
/// soon as it is decided, even while some inputs never resolve and their callbacks keep this
/// object alive.
///
/// Each input does exactly one of two things when it resolves:
/// - *contribute*: store something in the tail (a value, an outcome, a failure). The
///   contribution that completes the expected count builds the result from the tail.
/// - *decide*: settle the result without waiting for the others (a failure for
///   `fulfillingWhen`, a fulfilment for `firstFulfilled`, anything for `firstResolved`). The
///   first decider wins; later deciders and later contributions change nothing.
///
/// The word (``CombinatorWord``: REMAINING, WRITING, DECIDED, RESULT_TAKEN, TAIL_RELEASED)
/// decides who does what: each move is a pure function there, returning the word to write and
/// the duty that falls to the mover, and this class applies it with one C atomic and does the
/// duty. `CombinatorWord`'s comment says why exactly one party completes or decides and exactly
/// one releases the tail.
///
/// Memory ordering: the tail element an input writes is its own, so writes never overlap. A
/// contributor's leave is acquire-release: the completer's leave acquires every earlier
/// contributor's write. The decision is acquire-release for the same reason, as the decider may
/// release the tail. Taking the result and releasing the tail are each followed by a release
/// that sets their bit, and `deinit` acquires the word, so whatever thread drops the last
/// reference sees the header and tail as the deciding threads left them.
///
/// Why the C core's atomics rather than `Synchronization.Atomic`: ThreadSanitizer provably sees
/// them (weaken the leave to relaxed and the concurrency tests report the completer's reads as
/// races), as it must for users' sanitised builds to stay quiet; and `Atomic` would need macOS 15.
@usableFromInline
final class CombinatorState<Tail, Result>: ManagedBuffer<petal_combinator_header, Tail> {

    /// A state expecting `contributions` contributions, with a tail of `tailCount` elements that
    /// `initializeTail` must initialize, and resolving `result`.
    @inlinable
    static func make(
        resolving result: FutureStorage<Result>,
        contributions: Int,
        tailCount: Int,
        initializeTail: (UnsafeMutablePointer<Tail>) -> Void
    ) -> CombinatorState {
        precondition(
            contributions <= CombinatorWord.maximumCount,
            "Petal: a combinator takes at most \(CombinatorWord.maximumCount) futures"
        )
        let word = CombinatorWord(expecting: contributions).bits
        // Retained here, released by whoever takes it or by `deinit`: the header is C's, trivial.
        let retained = Unmanaged.passRetained(result).toOpaque()
        let state = unsafeDowncast(
            create(minimumCapacity: tailCount) { _ in
                petal_combinator_header(word: word, result: retained, tail_count: tailCount)
            },
            to: CombinatorState.self
        )
        state.withUnsafeMutablePointerToElements(initializeTail)
        return state
    }

    deinit {
        // Acquire: the threads that took the result or released the tail did so before their
        // release of the word, so this sees their work; the header is destroyed after this body.
        let word = CombinatorWord(bits: petal_atomic_load_acquire(wordAddress))
        if word.deinitDuty == .releaseTail {
            _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: tailCount) }
        }
        // Undecided: nobody took the combined future's storage.
        if let result = resultSlot.pointee { Unmanaged<FutureStorage<Result>>.fromOpaque(result).release() }
    }

    // MARK: Header fields

    // Each field is reached through its C accessor (`petal_combinator_header.h`), as in
    // `FutureStorage`: a Swift access to the whole header would overlap the C atomics of other
    // threads on the word.

    @inlinable
    var headerPointer: UnsafeMutablePointer<petal_combinator_header> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The word; touched only through the C atomics.
    @inlinable
    var wordAddress: UnsafeMutablePointer<petal_word> {
        UnsafeMutablePointer(mutating: petal_combinator_header_word(headerPointer))
    }

    /// The combined future's storage, retained, until the completer or the decider takes it.
    @inlinable
    var resultSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        petal_combinator_header_result(headerPointer)
    }

    /// Takes the combined future's storage: only the thread that completed or decided may.
    @inlinable
    func takeResult() -> FutureStorage<Result> {
        let result = resultSlot.pointee.unsafelyUnwrapped
        resultSlot.pointee = nil
        return Unmanaged<FutureStorage<Result>>.fromOpaque(result).takeRetainedValue()
    }

    /// How many tail elements were initialized; immutable.
    @inlinable
    var tailCount: Int {
        petal_combinator_header_tail_count(headerPointer).pointee
    }

    // MARK: The protocol

    /// Whether an input has decided the result. A hint only (no ordering): combinators read it to
    /// stop subscribing to inputs that can no longer change anything.
    @inlinable
    var isDecided: Bool {
        CombinatorWord(bits: petal_atomic_load(wordAddress)).isDecided
    }

    /// Records one input's contribution: `write` stores it in the input's own part of the tail,
    /// unless the result is decided (then the contribution is dropped and `write` never runs).
    /// If this is the last contribution expected, `complete` builds the result's outcome and
    /// must move every tail element out; the result is then resolved with it.
    @inlinable
    func contribute(
        _ write: (UnsafeMutablePointer<Tail>) -> Void,
        completing complete: (UnsafeMutableBufferPointer<Tail>) -> Outcome<Result>
    ) {
        guard enter() else { return }
        withUnsafeMutablePointerToElements(write)
        // Acquire-release: publishes this write; the completer's leave sees every earlier one.
        let replaced = CombinatorWord(bits: petal_atomic_fetch_add_full(wordAddress, CombinatorWord.leaving))
        switch replaced.leave().duty {
        case .complete:
            let outcome = withUnsafeMutablePointerToElements {
                complete(UnsafeMutableBufferPointer(start: $0, count: tailCount))
            }
            let storage = takeResult()
            retire(.complete)
            resolve(storage, with: outcome)
        case .releaseTail:
            releaseTail()
        case .nothing, .resolve, .resolveAndReleaseTail:
            break
        }
    }

    /// Decides the result with `outcome`, unless an input decided it already (then nothing
    /// changes). No contribution is accepted afterwards.
    @inlinable
    func decide(_ outcome: Outcome<Result>) {
        var old = CombinatorWord(bits: petal_atomic_load(wordAddress))
        var won = old.decide()
        while let next = won {
            // Acquire-release: when no contributor is writing, this thread releases the tail and
            // must see the writes of those that left.
            let seen = petal_atomic_fetch_cas_full(wordAddress, old.bits, next.word.bits)
            if seen == old.bits { break }
            old = CombinatorWord(bits: seen)
            won = old.decide()
        }
        guard let step = won else { return }
        let storage = takeResult()
        if step.duty == .resolveAndReleaseTail {
            _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: tailCount) }
            retire(.resolveAndReleaseTail)
        } else {
            // A contributor is still writing: the last one to leave releases the tail.
            retire(.resolve)
        }
        // Deciding early gives up on the inputs still pending: they are asked (by vote) before
        // the combined future's observers run, so those find the work already told to stop.
        storage.giveUpUpstream()
        resolve(storage, with: outcome)
    }

    /// Starts a contribution; `false` once the result is decided.
    @inlinable
    func enter() -> Bool {
        var old = CombinatorWord(bits: petal_atomic_load(wordAddress))
        while let next = old.enter() {
            // No ordering: the tail was initialized before any input could see this state, and
            // entering publishes nothing; the leave does.
            let seen = petal_atomic_fetch_cas(wordAddress, old.bits, next.bits)
            if seen == old.bits { return true }
            old = CombinatorWord(bits: seen)
        }
        return false
    }

    /// Deinitializes the tail after a decision, once nobody writes it.
    @inlinable
    func releaseTail() {
        _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: tailCount) }
        retire(.releaseTail)
    }

    /// Sets the flags of `duty`, done, with a release: what this thread did to the header and
    /// tail happens before `deinit`, whichever thread runs it.
    @inlinable
    func retire(_ duty: CombinatorWord.Duty) {
        _ = petal_atomic_fetch_add_release(wordAddress, duty.retiredBits)
    }

    /// Resolves the combined storage, which only the caller can resolve now.
    @inlinable
    func resolve(_ storage: FutureStorage<Result>, with outcome: Outcome<Result>) {
        let resolved = storage.resolve(with: outcome)
        assert(resolved, "Petal: a combined future was resolved twice")
    }
}

extension CombinatorState {
    /// This state, for the `@Sendable` callbacks of the inputs to capture (`ManagedBuffer`
    /// subclasses cannot conform to `Sendable` themselves).
    ///
    /// Sound because the callbacks may run on any threads but every access is synchronised: the
    /// word is only touched by the C atomics; the result field, by the one thread that decided or
    /// completed and by `deinit`; each tail element, by its input's callback, then by the
    /// completer or the releaser, all ordered by the word (see the type's comment). Values of a
    /// non-Sendable `Result` cross no isolation boundary that the inputs do not: futures of such
    /// values are not Sendable, so the inputs and the combined future all live in one region.
    @inlinable
    var shared: UncheckedSendableBox<CombinatorState> { UncheckedSendableBox(self) }
}
