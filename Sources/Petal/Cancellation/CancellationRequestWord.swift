import CPetal

/// The bits of a future's cancellation-request word (``FutureHeader/requestWord``).
///
/// The word is zero for every future whose users never touch upstream cancellation, and then
/// nothing reads more than that zero. Everything else is decided by compare-and-swap on it:
///
/// ```
///   bit 31  PROPAGATES   requests can reach a producer from here: the future belongs to a job,
///                        its promise's owner registered a handler, or it is chained onto such a
///                        future; its counted dependents link to it when they are created
///   bit 30  HAS_ACTIONS  actions for a request wait in ``CancellationRegistry``
///   bit 29  REQUESTED    a request reached the future (once; later ones do nothing)
///   bits 14-27           votes: counted dependents that have asked
///   bits 0-13            counted dependents: futures chained onto this one while it propagated,
///                        and tasks awaiting it with `cancellingUpstream: true`
/// ```
///
/// A dependent count that reaches its maximum stays there: a future with that many dependents
/// is then only asked directly, never by votes.
@usableFromInline
enum CancellationRequestWord {
    @usableFromInline static let propagates: UInt32 = 1 << 31
    @usableFromInline static let hasActions: UInt32 = 1 << 30
    @usableFromInline static let requested: UInt32 = 1 << 29
    static let countMask: UInt32 = (1 << 14) - 1
    static let voteShift: UInt32 = 14

    static func dependents(_ word: UInt32) -> UInt32 { word & countMask }
    static func votes(_ word: UInt32) -> UInt32 { (word >> voteShift) & countMask }
}

extension FutureStorage {
    /// Applies `change` to the request word until a CAS succeeds or `change` returns `nil`
    /// (nothing to do). Returns the word written, or `nil`.
    @discardableResult
    final func updateRequestWord(_ change: (UInt32) -> UInt32?) -> UInt32? {
        var seen = petal_atomic_u32_load(requestWord)
        while true {
            guard let next = change(seen) else { return nil }
            if petal_atomic_u32_exchange(requestWord, &seen, next) != 0 { return next }
        }
    }

    /// Whether requests can reach a producer from this future.
    final var propagatesRequests: Bool {
        petal_atomic_u32_load(requestWord) & CancellationRequestWord.propagates != 0
    }

    /// Whether a request has reached this future.
    final var isCancellationRequested: Bool {
        petal_atomic_u32_load(requestWord) & CancellationRequestWord.requested != 0
    }

    /// Marks the future as one whose requests can reach a producer.
    final func markPropagating() {
        updateRequestWord { word in
            word & CancellationRequestWord.propagates != 0 ? nil : word | CancellationRequestWord.propagates
        }
    }

    /// Counts one more dependent that may vote. Returns `false` if the count is saturated (the
    /// dependent's vote would never be counted) or a request already arrived.
    @discardableResult
    final func addDependent() -> Bool {
        updateRequestWord { word in
            let count = CancellationRequestWord.dependents(word)
            guard count < CancellationRequestWord.countMask,
                word & CancellationRequestWord.requested == 0
            else { return nil }
            return word + 1
        } != nil
    }

    /// Links `downstream`, just created by chaining onto this propagating future: it counts as
    /// a dependent here, propagates itself, and a request that reaches it votes here.
    @usableFromInline
    @inline(never)
    final func linkDependent<Downstream>(_ downstream: FutureStorage<Downstream>) {
        downstream.markPropagating()
        guard addDependent() else { return }
        // The action holds this future until the downstream resolves or is freed (the registry
        // lets go then): only chains whose producer can be asked pay for it.
        // Sendable: a vote touches only the request word (atomics) and the registry (locked).
        let upstream = UncheckedSendableBox(self)
        CancellationRegistry.add({ upstream.value.receiveVote() }, for: downstream)
    }

    /// Lets go of the cancellation actions of a future that resolved or is being freed.
    @usableFromInline
    @inline(never)
    final func discardCancellationActions() {
        CancellationRegistry.discardActions(for: ObjectIdentifier(self))
    }

    /// Asks this future to cancel on behalf of whoever holds it: unconditional, once.
    final func requestCancellation() {
        guard !isResolved else { return }
        let won = updateRequestWord { word in
            word & CancellationRequestWord.requested != 0 ? nil : word | CancellationRequestWord.requested
        }
        if won != nil { answerCancellationRequest() }
    }

    /// One counted dependent asks: the future is asked once every counted dependent has.
    final func receiveVote() {
        guard !isResolved else { return }
        let written = updateRequestWord { word in
            guard word & CancellationRequestWord.requested == 0 else { return nil }
            let count = CancellationRequestWord.dependents(word)
            let votes = CancellationRequestWord.votes(word) + 1
            // Saturated: votes can no longer be compared with the real number of dependents.
            guard count < CancellationRequestWord.countMask, votes <= count else { return nil }
            var next = (word & ~(CancellationRequestWord.countMask << CancellationRequestWord.voteShift))
            next |= votes << CancellationRequestWord.voteShift
            if votes == count { next |= CancellationRequestWord.requested }
            return next
        }
        if let written, written & CancellationRequestWord.requested != 0 { answerCancellationRequest() }
    }
}
