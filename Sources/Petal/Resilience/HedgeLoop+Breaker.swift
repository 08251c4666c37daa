import CPetal

/// A hedged call's copies through its breaker (``HedgingPolicy/breaker``): each let through
/// or refused, and its outcome counted on the subscription the loop makes anyway.
extension HedgeLoop {
    /// Sends a copy that has begun and that `breaker` let through with `ticket` at `start`, and
    /// watches it; its outcome is counted by the breaker before the loop reads it. A trial is
    /// the breaker's own probe (see `CircuitBreaker.probe`): the loop watches, and asks, the
    /// future that shields it.
    func send(
        _ number: Int, through breaker: CircuitBreaker, ticket: CircuitBreaker.Ticket,
        since start: Int64
    ) {
        let copy: Future<Value>
        do {
            copy = try runningAttempt(of: plan.budgetMark, body)
        } catch {
            breaker.finish(ticket, kind: .rejected, error: error, since: start)
            guard finishStarting(nil) else { return }
            return copyFailed(error)
        }
        // A copy refused at once by the request's deadline (a layer inside `body`) tells the
        // breaker nothing about the backend.
        if let deadline, copy.isResolved, deadline.hasPassed {
            return refusedAtOnce(number, copy.storage, by: deadline, through: breaker, ticket: ticket, since: start)
        }
        if ticket & 1 != 0 {
            let shield = breaker.probe(copy, ticket: ticket, since: start)
            guard finishStarting(shield.storage) else { return }
            watch(shield.storage)
            return scheduleNextCopy(after: number)
        }
        // `run` sends through the breaker only with the plan's words.
        if number == 1 { keepFirst(ticket, since: start, words: plan.breakerWords.unsafelyUnwrapped) }
        guard finishStarting(copy.storage) else { return }
        if number == 1 {
            subscribeStep(copy.storage) { copy, kind in self.decideCounted(copy, kind) }
        } else {
            watch(copy.storage, countedBy: breaker, ticket: ticket, since: start)
        }
        scheduleNextCopy(after: number)
    }

    /// Sends the first copy, which a closed breaker let through with `ticket` (read from its
    /// state word at `words`) as the call began, and counts it there as it resolves, through
    /// `decideCounted`.
    ///
    /// The path of nearly every call in calm, kept to the code a copy takes without a breaker
    /// (`send(_:countingFirst:)`) and the few stores here: in a server a call's code is
    /// likely out of the instruction cache by the time it runs, each line of it a miss, so the
    /// rare paths through the breaker (a trial, a later copy, a refusal) stay in
    /// `send(_:through:ticket:since:)`.
    func sendFirstCounted(ticket: CircuitBreaker.Ticket, words: UnsafeMutablePointer<petal_atomic_word>) {
        keepFirst(ticket, since: beganAt, words: words)
        send(1, countingFirst: true)
    }

    /// Keeps the first copy's `ticket` and `start` for `decideCounted`, and decides how its
    /// fulfilment before the next copy's timer will be counted (`firstWeight`), from the state
    /// word's line at `words` that the admission has just loaded. Kept in the loop rather than
    /// in a closure: the first copy's count allocates nothing. Written before the subscription
    /// that publishes them to the thread that reads them.
    @inline(__always)
    func keepFirst(
        _ ticket: CircuitBreaker.Ticket, since start: Int64, words: UnsafeMutablePointer<petal_atomic_word>
    ) {
        firstTicket = ticket
        firstStart = start
        firstWeight =
            delayNanoseconds <= plan.breakerSlowCallNanoseconds
            ? CircuitBreaker.fastSuccessWeight(ticket, words: words) : -1
    }

    /// The body of the first copy, let through by a closed breaker, threw: a failure for the
    /// breaker to count.
    @inline(never)
    func firstFailedToStart(_ error: any Error) {
        plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
            breaker.finish(firstTicket, kind: .rejected, error: error, since: firstStart)
        }
    }

    /// The first copy, let through by a closed breaker, was resolved at once past the request's
    /// deadline: counted as the deadline's refusal (see `refusedAtOnce`).
    @inline(never)
    func firstRefusedAtOnce(_ copy: FutureStorage<Value>, by deadline: HeldDeadline) {
        plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
            refusedAtOnce(1, copy, by: deadline, through: breaker, ticket: firstTicket, since: firstStart)
        }
    }

    /// The first copy, let through by the breaker, resolved: counted there with the ticket and
    /// start kept in `firstTicket` and `firstStart`, then decided as any copy.
    ///
    /// One reading of the time serves both the breaker and the latency when they keep the same
    /// clock (as they share the start, see `run`). A fulfilment is counted as the call
    /// concludes, where the loop learns under the lock it takes anyway whether it came before
    /// the next copy's timer (see `countFirst(answeredBeforeHedge:)`).
    func decideCounted(_ copy: FutureStorage<Value>, _ kind: OutcomeKind) {
        if kind == .fulfilled { return conclude(.fulfilled, copying: copy, countingFirst: true) }
        let error = kind == .rejected ? copy.observedError : nil
        let end = plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
            let end = breaker.nanosecondsNow
            breaker.finish(firstTicket, kind: kind, error: error, since: firstStart, until: end)
            return end
        }
        guard kind != .rejected else { return decide(copy, kind, error: error) }
        conclude(kind, copying: copy, endedAt: sharesReadings ? end : nil)
    }

    /// Counts the first copy's fulfilment in the breaker; returns the time read for it, if
    /// the latency can use it.
    ///
    /// Answered before the next copy's timer fired, with a delay at most the breaker's
    /// slow-call duration (`firstWeight` not negative), the copy was not slow, and no clock is
    /// read for it: it is counted as a success in the period it began in, if the window samples
    /// it. On the path of nearly every call in calm, a reading of the clock costs about 20 ns,
    /// and the latency needs one only for the calls it times; and a success not sampled, most
    /// of them in a busy service, touches none of the breaker's lines here, where its count
    /// comes milliseconds after its admission (each line likely a miss by then). (A timer that
    /// fires late lets a call answered just past the delay through this way; with the delay at
    /// the slow-call duration, one answered just past that too.)
    func countFirst(answeredBeforeHedge: Bool) -> Int64? {
        if answeredBeforeHedge && firstWeight >= 0 {
            guard firstWeight != 0 else { return nil }
            plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
                breaker.succeededFast(firstTicket, at: firstStart, weight: firstWeight)
            }
            return nil
        }
        return plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
            let end = breaker.nanosecondsNow
            breaker.finish(firstTicket, kind: .fulfilled, error: nil, since: firstStart, until: end)
            return sharesReadings ? end : nil
        }
    }

    /// A copy that `breaker` let through was resolved at once, past the request's deadline:
    /// counted as the deadline's refusal, then watched as any copy.
    ///
    /// A function of its own, never inlined: the outcome it reads has a size that depends on
    /// `Value`, and a caller holding one looks `Outcome<Value>`'s metadata up on entry, whether
    /// or not it takes this path (callgrind: about 325 instructions on every call through a
    /// breaker).
    @inline(never)
    func refusedAtOnce(
        _ number: Int, _ copy: FutureStorage<Value>, by deadline: HeldDeadline, through breaker: CircuitBreaker,
        ticket: CircuitBreaker.Ticket, since start: Int64
    ) {
        let outcome = copy.snapshot()
        breaker.finish(
            ticket, kind: outcome?.kind ?? .rejected, error: outcome?.error, since: start,
            refusal: deadline.exceededError)
        guard finishStarting(copy) else { return }
        watch(copy)
        scheduleNextCopy(after: number)
    }

    /// ``watch(_:)`` for a copy `breaker` let through with `ticket` at `start`: its outcome is
    /// counted there first, on the same subscription.
    func watch(
        _ copy: FutureStorage<Value>, countedBy breaker: CircuitBreaker, ticket: CircuitBreaker.Ticket,
        since start: Int64
    ) {
        subscribeStep(copy) { copy, kind in
            let error = kind == .rejected ? copy.observedError : nil
            breaker.finish(ticket, kind: kind, error: error, since: start)
            self.decide(copy, kind, error: error)
        }
    }
}
