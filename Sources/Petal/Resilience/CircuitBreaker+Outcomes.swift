import CPetal

/// What a breaker learns from each call it let through: the outcome classified (a success, a
/// failure of the backend, or nothing), timed against the slow-call duration, and counted in
/// the window of the closed state that admitted it, or settling the half-open state's trial.
extension CircuitBreaker {
    /// Counts the outcome of a call let through with `ticket`, which started at `start`;
    /// `refusal`, a request's deadline that refused it at once (see ``run(on:_:)``), if one did.
    @usableFromInline
    func finish(
        _ ticket: Ticket, kind: OutcomeKind, error: (any Error)?, since start: Int64,
        refusal: FutureTimeoutError?
    ) {
        let refused = refusal.map { refusal in (error as? FutureTimeoutError)?.deadline == refusal.deadline } ?? false
        let outcome = kind == .rejected && refused ? .ignored : classify(kind, error)
        count(outcome, ticket: ticket, since: start, until: nanosecondsNow)
    }

    /// Counts the outcome of a call let through with `ticket`, which started at `start` and
    /// ended now.
    @usableFromInline
    func finish(_ ticket: Ticket, kind: OutcomeKind, error: (any Error)?, since start: Int64) {
        finish(ticket, kind: kind, error: error, since: start, until: nanosecondsNow)
    }

    /// Counts the outcome of a call let through with `ticket`, which started at `start` and
    /// ended at `end`, read by the caller (a hedged call shares its reading with its latency's).
    /// No refusal to compare with: an optional error that holds an instant is copied through
    /// value witnesses, which the path every answered call takes should not pay for.
    func finish(_ ticket: Ticket, kind: OutcomeKind, error: (any Error)?, since start: Int64, until end: Int64) {
        count(classify(kind, error), ticket: ticket, since: start, until: end)
    }

    /// Counts a success that was not slow, of a call let through with `ticket`, in the period
    /// of `time`, as `weight` calls (``fastSuccessWeight(_:words:)``, not 0):
    /// ``finish(_:kind:error:since:until:)`` for the fulfilment a hedged call's first copy
    /// usually is (see `HedgeLoop.countFirst`), with nothing to classify or time.
    @inline(__always)
    func succeededFast(_ ticket: Ticket, at time: Int64, weight: Int) {
        guard ticket & 1 == 0 else { return settle(trial: UInt32(truncatingIfNeeded: ticket >> 1), .success, at: time) }
        record(.success, slow: false, epoch: UInt32(truncatingIfNeeded: ticket >> 1), at: time, weight: weight)
    }

    fileprivate func count(_ outcome: BreakerOutcome, ticket: Ticket, since start: Int64, until end: Int64) {
        var outcome = outcome
        let longEnough = end &- start >= slowCallNanoseconds
        // Given up on after it had run slow: no answer, but a slow call (a hang's only sign).
        // A refusal ends at once, so it is never long enough to count.
        if outcome == .ignored, longEnough { outcome = .success }
        let slow = outcome != .ignored && longEnough
        let epoch = UInt32(truncatingIfNeeded: ticket >> 1)
        if ticket & 1 == 0 {
            let weight = outcome == .success && !slow ? weightOfSuccess() : 1
            guard weight != 0 else { return }
            record(outcome, slow: slow, epoch: epoch, at: end, weight: weight)
        } else {
            // A slow trial says the backend is not back: it opens the breaker again as a failure.
            settle(trial: epoch, slow ? .failure : outcome, at: end)
        }
    }

    /// What a call's outcome says of the backend. A rejection the request's deadline made is
    /// told apart by the caller (see ``finish(_:kind:error:since:refusal:)``).
    fileprivate func classify(_ kind: OutcomeKind, _ error: (any Error)?) -> BreakerOutcome {
        switch kind {
        case .fulfilled: return .success
        case .cancelled: return .ignored
        case .rejected:
            guard let error else { return .failure }
            if error is ConcurrencyLimitExceededError || error is CircuitBreakerOpenError
                || error is FutureCancelledError
            {
                return .ignored
            }
            return isFailure(error) ? .failure : .success
        }
    }

    /// The weight a success that was neither slow nor failed is counted with: the calls it
    /// stands for, or 0 if the window does not sample it (see `BreakerWindow.successMask`).
    @inline(__always)
    fileprivate func weightOfSuccess() -> Int {
        Self.weightOfSuccess(words: word)
    }

    /// ``weightOfSuccess()`` from the state word's address alone (see ``hotWords``).
    @inline(__always)
    static func weightOfSuccess(words: UnsafeMutablePointer<petal_atomic_word>) -> Int {
        // ACQUIRE, though only the value is read: the window's mask, kept beside the state word
        // (see `BreakerWindow.successMask`).
        BreakerWindow.weightOfSuccess(mask: UInt64(petal_atomic_word_load(words + 1)))
    }

    /// Counts a call of closed `epoch` in the window, as `weight` calls; a failed or slow one
    /// opens the breaker if the window's rates are past their thresholds.
    ///
    /// Never inlined: in a busy service most successes are not counted (see `weightOfSuccess`),
    /// and this, inlined into their path, made it several cache lines of code where it needs one.
    @inline(never)
    fileprivate func record(_ outcome: BreakerOutcome, slow: Bool, epoch: UInt32, at now: Int64, weight: Int = 1) {
        guard outcome != .ignored else { return }
        // ACQUIRE: a call of an earlier closed state is not counted in this one's window.
        let seen = petal_atomic_word_load(word)
        guard BreakerWord.state(seen) == BreakerWord.closed && BreakerWord.epoch(seen) == epoch else { return }
        let failed = outcome == .failure
        let period = window.period(elapsed: now &- origin)
        window.record(period: period, failed: failed, slow: slow, weight: weight)
        guard failed || slow else { return }
        let totals = window.totals(upTo: period)
        let calls = Double(totals.calls)
        guard totals.calls >= bounded.minimumCalls,
            Double(totals.failures) >= bounded.failureRateThreshold * calls
                || Double(totals.slow) >= bounded.slowCallRateThreshold * calls
        else { return }
        trip(epoch: epoch, at: now)
    }
}
