import CPetal

/// The bits of a future's failure word (``FutureHeader/failure``).
///
/// Why it exists: a failure nobody observed is reported when its future is freed, and what
/// "observed" means is decided at the few places that hand a failure to someone (see
/// ``FutureStorage/observedError``), never on a path a fulfilment takes: a fulfilled future and
/// a subscription to one touch this word not at all.
@usableFromInline
enum FailureWord {
    /// Someone was handed the failure (its error, or the whole outcome).
    @inlinable
    static var observed: UInt32 { 1 }
    /// The rest of the word is the number of the site the failure came from (a promise's
    /// creation site, numbered by Diagnostics), or 0 if none is known.
    @inlinable
    static var siteShift: UInt32 { 1 }
}

/// Which failures were observed, and where they came from.
extension FutureStorage {
    /// The failure word, in the header's padding.
    @inlinable
    final var failureWord: UnsafeMutablePointer<petal_atomic_u32> {
        petal_future_header_failure(headerPointer)
    }

    /// The rejection error or the cancellation's indirect error, handed to someone who therefore
    /// observed the failure: read every failure that leaves the storage through this. Call only
    /// after an acquire load of the word saw an outcome that is not `.fulfilled`.
    @inlinable
    final var observedError: (any Error)? {
        markFailureObserved()
        return error.pointee
    }

    /// Records that someone was handed this future's failure. Call only after an acquire load
    /// of the word saw it failed (so the claimer's site number, written before its publish, is
    /// in the word this rewrites).
    @inlinable
    final func markFailureObserved() {
        // RELAXED: several observers may mark at once, and all of them store the same value (the
        // site bits were written before the publish they saw, and never change); the only reader
        // is the deinit, which the last release orders after every mark. Loading first keeps a
        // failure observed many times from writing its cache line each time.
        let word = petal_atomic_u32_load_relaxed(failureWord)
        if word & FailureWord.observed == 0 {
            petal_atomic_u32_store_relaxed(failureWord, word | FailureWord.observed)
        }
    }

    /// The number of the promise site this failure came from, or 0. Call only after an acquire
    /// load of the word saw it failed.
    @inlinable
    final var failureSite: UInt32 {
        // RELAXED: written before the publish the caller's acquire load saw.
        petal_atomic_u32_load_relaxed(failureWord) >> FailureWord.siteShift
    }

    /// Rejects or cancels with `error` unless already resolved, naming the promise site
    /// `failureSite` (0 for none) as where the failure came from; returns whether it did.
    @inlinable
    @discardableResult
    final func fail(_ kind: OutcomeKind, error: (any Error)?, failureSite: UInt32) -> Bool {
        let taken = petal_cell_claim_taking(cell)
        guard petal_word_won_claim(taken) != 0 else { return false }
        self.error.initialize(to: error)
        recordFailureSite(failureSite)
        publish(kind, claimed: taken)
        return true
    }

    /// Writes the site of a failure: by the claimer, before its publish, or before the storage
    /// is shared.
    @inlinable
    final func recordFailureSite(_ number: UInt32) {
        // RELAXED: the publish that follows (or the sharing of a storage created resolved)
        // orders it before every reader; nobody marks a failure before it is published.
        if number != 0 { petal_atomic_u32_store_relaxed(failureWord, number << FailureWord.siteShift) }
    }

    /// The deinit's part for a failed future: reports the failure if nobody observed it, then
    /// releases the error. Out of line, so that the deinit of a fulfilled future keeps no more
    /// in its registers than before this existed (callgrind counted five instructions more).
    @inline(never)
    final func releaseFailure() {
        // A failure that carries no error (a plain cancellation) is never reported.
        guard let error = error.pointee else { return }
        // RELAXED: this runs after the last release, which orders every thread's marks before it.
        if petal_atomic_u32_load_relaxed(failureWord) & FailureWord.observed == 0 {
            let failure = UnobservedFailure(
                error: error, kind: OutcomeKind(publishedIn: cell), site: failureSite, valueType: Value.self)
            withUnsafePointer(to: failure) { petal_swift_unobserved_failure($0) }
        }
        self.error.deinitialize(count: 1)
    }
}

/// A failure nobody observed, handed to Core's hook (`petal_swift_hooks.h`) as its future is
/// freed: Diagnostics decides whether and how it is reported.
@usableFromInline
struct UnobservedFailure {
    /// The rejection error, or the cancellation's indirect error.
    let error: any Error
    /// Rejected or cancelled.
    let kind: OutcomeKind
    /// The number of the site the failure came from, or 0.
    let site: UInt32
    /// The future's value type.
    let valueType: Any.Type
}
