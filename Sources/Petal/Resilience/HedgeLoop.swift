/// The state of one `hedging` call: how many copies started and are pending, the copies to ask
/// when the call is over, the timers of the next copy and of the next retry, and whether the
/// call is over.
///
/// Why it exists: copies start from the timer thread, from callbacks on other threads and from
/// the caller, and the first fulfilment or a request must reach every one of them before the
/// call's own future resolves.
///
/// Why retries and the breaker are here too (``HedgingPolicy/retry``,
/// ``HedgingPolicy/breaker``): a call retried, hedged and guarded by layers (`retrying` around
/// `hedging` around `breaker.run`) pays for three loops, three results and three subscriptions
/// per call; one loop that sends every copy pays for one of each, and the breaker's count rides
/// on the subscription the loop makes anyway.
///
/// The order, all under this object's lock: a body begins only while the call is not over, and
/// is counted in `starting` until its copy is linked. The thread that ends the call takes every
/// linked copy and votes on each; if bodies are still starting, the last of them to return
/// votes on its copy and then resolves the result. So no copy that began is asked after the
/// result resolves, and nobody waits for a body.
@usableFromInline
final class HedgeLoop<Value, Context: ExecutionContext>: AttemptLoop, @unchecked Sendable {
    // @unchecked: `result` is resolved once, by whoever takes the end (`conclude` or the last
    // `leave`); the variables only under this object's stripe of `StripedLock`; everything
    // else is immutable.
    private let result: FutureStorage<Value>
    /// How `result` is resolved (see `ResultHooks`).
    private let settle: FutureStorage<Value>.Settle
    /// How an attempt is watched (see `ResultHooks`).
    let subscribeStep: FutureStorage<Value>.SubscribeStep
    /// The policy's values and what follows from them (see `HedgingPlan`).
    let plan: HedgingPlan
    /// The wait before each next copy: the policy's, or its adaptive delay's as this call began.
    let delay: Duration
    /// `delay` in nanoseconds.
    let delayNanoseconds: Int64
    /// The policy's adaptive delay, which this call's latency is recorded into (`nil` for a
    /// fixed delay). Unretained, as the plan's (see `HedgingPlan.breaker`): the plan holds it,
    /// and this call the plan.
    let latencies: Unmanaged<LatencyPercentile>?
    /// When the call began, in `clock`'s nanoseconds, if `begin` read the clock (for an
    /// adaptive delay or a deadline); else 0. Nanoseconds, not an instant: see
    /// `DeadlineScheduler.nanosecondsNow`.
    let beganAt: Int64
    /// Whether the second copy's timer, and the deadline's check before it, count from
    /// `beganAt` rather than from a reading of their own: when there is one and the first copy
    /// was sent within `begin`, microseconds after it.
    private let firstTimerFromBegin: Bool
    /// Whether `beganAt` serves the breaker as the first copy's start (its clock keeps the same
    /// time as `clock`), and the first copy's end serves the latency (see `run`).
    let sharesReadings: Bool
    /// Whether this call's latency is counted into `latencies`: a share of the calls, fewer as
    /// they grow (see `LatencyPercentile.times(callBeganAt:)`).
    private let timesLatency: Bool
    let clock: DeadlineClock
    let deadline: HeldDeadline?
    let body: @Sendable () throws -> Future<Value>
    /// Copies begun or about to begin (counted when decided, so that the timer and a rejection
    /// never start the same copy twice). The first copy is decided by the call itself.
    var started = 1
    /// Copies counted in `started` that have not failed yet: pending, or about to begin. The
    /// call is rejected when the last of them fails.
    var live = 1
    /// The error of the last copy rejected, for when no copy is left.
    var lastError: (any Error)?
    /// The timer of the next copy.
    var wait: DeadlineEntry?
    /// Retries decided: begun, or waiting for their turn.
    var retried = 0
    /// The timer of the retry waiting for its turn.
    var retryWait: DeadlineEntry?
    /// Whether the call is over: decided by a copy, or asked to stop. No body begins after.
    var over = false
    /// Threads that hold the result back: bodies that began and have not linked their copies,
    /// and, while they are, the thread that ended the call, until its votes are cast.
    private var starting = 0
    /// The end of a call that was over while bodies were starting, for the last thread to
    /// leave (see `conclude`).
    private var pendingEnd: End?
    /// The first copy counted as a dependent and not voted on yet (always a
    /// `FutureStorage<Value>`): a slot of its own, so that a call answered by its first copy
    /// allocates nothing to ask its copies. `AnyObject`, so that taking it out is a move without
    /// a metadata look-up (see `End`).
    private var firstLinked: AnyObject?
    /// The other copies counted as dependents and not voted on yet; `nil` until there is one.
    private var laterLinked: [FutureStorage<Value>]?
    /// The breaker's ticket of the first copy and when it began (see `decideCounted`): written
    /// once, before the copy's subscription, by the thread that sends it.
    var firstTicket: CircuitBreaker.Ticket = 0
    var firstStart: Int64 = 0
    /// How the first copy's fulfilment is counted if it comes before the next copy's timer,
    /// decided as it is sent (see `countFirst`): -1, timed (the delay is past the breaker's
    /// slow-call duration); 0, not at all (the window does not sample it); else as that many
    /// calls. Written with `firstTicket`.
    var firstWeight = 0
    /// Last: a stored property whose size depends on a generic parameter moves every one after
    /// it to an offset read from the metadata at run time, in this code that is not specialised.
    let context: Context

    /// How a call that ended while bodies were starting resolves.
    ///
    /// Only stored, never returned from `withLock` or passed to a generic function: this code
    /// is not specialised for the caller's types, and such a use of a type that names `Value`
    /// looks its metadata up at run time, each time (callgrind: +2,400 instructions and +10
    /// atomics a hedged call when the usual path returned an enum and a struct so; +1,900 and
    /// +4 for `Optional.take()` on `FutureStorage<Value>?`).
    private struct End {
        /// How the result resolves: fulfilled (only as `source` is), rejected or cancelled.
        var kind: OutcomeKind
        /// The copy whose outcome the result takes, or `nil` for a failure of the loop's own:
        /// a declined or last rejection, a request, a copy its context dropped.
        var source: FutureStorage<Value>?
        /// The failure's error, without a `source`.
        var error: (any Error)?
    }

    init(
        result: FutureStorage<Value>, hooks: ResultHooks<Value>, policy: borrowing HedgingPolicy, context: Context,
        clock: DeadlineClock, deadline: HeldDeadline?, began: Int64?,
        body: @escaping @Sendable () throws -> Future<Value>
    ) {
        self.result = result
        settle = hooks.settle
        subscribeStep = hooks.subscribeStep
        let plan = policy.plan
        self.plan = plan
        let delay: Duration
        // `begin` read the clock for a deadline, an adaptive delay or a breaker (see
        // `HedgingPolicy.timesCalls(on:)`); the latency starts from that reading.
        let reading = began ?? (plan.latencyWords != nil ? clock.nanosecondsNow : nil)
        if let words = plan.latencyWords {
            // From the words the plan keeps: the percentile's own line is loaded only by the
            // calls it times, as they end.
            latencies = plan.adaptiveDelay
            delayNanoseconds = LatencyPercentile.delayNanoseconds(hotWords: words)
            delay = .nanoseconds(delayNanoseconds)
            timesLatency = LatencyPercentile.times(callBeganAt: reading.unsafelyUnwrapped, hotWords: words)
        } else {
            latencies = nil
            delay = plan.delay
            delayNanoseconds = plan.delayNanoseconds
            timesLatency = false
        }
        beganAt = reading ?? 0
        // The reading is the first copy's start for the breaker too, when it keeps the same time.
        sharesReadings = reading != nil && plan.keepsBreakerTime(with: clock)
        self.delay = delay
        // The first copy is sent within `begin` only on `.inline`: elsewhere it begins when the
        // context runs it, and its delay counts from then.
        firstTimerFromBegin = began != nil && Context.self == InlineExecutionContext.self
        self.context = context
        self.clock = clock
        self.deadline = deadline
        self.body = body
    }

    /// `Future.hedging`'s call, into `result` (see `AttemptLoop.begin`).
    @usableFromInline
    static func call(
        _ policy: HedgingPolicy, on context: Context, clock: DeadlineClock, into result: consuming FutureStorage<Value>,
        hooks: ResultHooks<Value>, _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        begin(policy, on: context, clock: clock, into: result, hooks: hooks, body)
    }

    func cancel(with error: any Error) {
        conclude(.cancelled, error: error)
    }

    func run(_ number: Int) {
        // A later copy that `context` ran at or after the deadline (the call itself checked the
        // first): not sent, as if the budget had refused it.
        if number != 1, isPastDeadline {
            notStarted(number)
            return refused(number)
        }
        let begins = withLock { () -> Bool in
            guard !over else {
                live -= 1
                return false
            }
            starting += 1
            return true
        }
        guard begins else { return notStarted(number) }
        guard let words = plan.breakerWords else { return send(number) }
        // Closed, the call is let through from the state word alone (see `HedgingPlan`).
        let closed = CircuitBreaker.closedTicket(words: words)
        // The first copy through a closed breaker, whose start is the call's (the usual case in
        // calm): sent by the path a copy takes without a breaker, and counted as it concludes
        // (see `sendFirstCounted`).
        if number == 1, sharesReadings, let ticket = closed { return sendFirstCounted(ticket: ticket, words: words) }
        plan.breaker.unsafelyUnwrapped._withUnsafeGuaranteedRef { breaker in
            // Through the breaker: refused while it is open, as `breaker.run` refuses.
            let ticket = closed ?? breaker.admit()
            if ticket >= CircuitBreaker.refused {
                guard finishStarting(nil) else { return }
                return copyFailed(breaker.refusal(for: ticket))
            }
            // The first copy begins as the call does: the adaptive delay's reading serves the
            // breaker too when both keep the same time.
            let start = number == 1 && sharesReadings ? beganAt : breaker.nanosecondsNow
            send(number, through: breaker, ticket: ticket, since: start)
        }
    }

    /// Sends copy `number`, which has begun, and watches it.
    private func send(_ number: Int) {
        send(number, countingFirst: false)
    }

    /// ``send(_:)``, or, `countingFirst`, the first copy through a closed breaker, counted there
    /// as it resolves (see `sendFirstCounted`). Always inlined, so that each caller's copy is
    /// compiled for its own `countingFirst`: the path without a breaker pays nothing for it.
    @inline(__always)
    func send(_ number: Int, countingFirst: Bool) {
        let copy: Future<Value>
        do {
            copy = try runningAttempt(of: plan.budgetMark, body)
        } catch {
            if countingFirst { firstFailedToStart(error) }
            guard finishStarting(nil) else { return }
            return copyFailed(error)
        }
        // A copy refused at once by the request's deadline (a layer inside `body`) tells the
        // breaker nothing about the backend.
        if countingFirst, let deadline, copy.isResolved, deadline.hasPassed {
            return firstRefusedAtOnce(copy.storage, by: deadline)
        }
        guard finishStarting(copy.storage) else { return }
        if countingFirst {
            subscribeStep(copy.storage) { copy, kind in self.decideCounted(copy, kind) }
        } else {
            watch(copy.storage)
        }
        // After the subscription: a copy that was already fulfilled has decided the call, and
        // needs no timer.
        scheduleNextCopy(after: number)
    }

    /// Subscribes to a copy that was sent: its outcome decides the call or, rejected, is a
    /// failure to hedge or retry. A step, handed the copy and its kind: no `Outcome` is built
    /// (unspecialised here, each would look its metadata up at run time).
    func watch(_ copy: FutureStorage<Value>) {
        subscribeStep(copy) { copy, kind in self.decide(copy, kind, error: nil) }
    }

    /// A copy resolved: fulfilled or cancelled, it decides the call; rejected (with `error`,
    /// read here if the caller did not), it is a failure to hedge or retry.
    func decide(_ copy: FutureStorage<Value>, _ kind: OutcomeKind, error: (any Error)?) {
        guard kind == .rejected else { return conclude(kind, copying: copy) }
        copyFailed(error ?? copy.observedError ?? FutureCancelledError(indirectError: nil))
    }

    /// A copy counted in `started` never began: an extra copy gives the hedging budget's token
    /// back, a retry (a negative number) the retry budget's.
    func notStarted(_ number: Int) {
        if number > 1 {
            plan.values.budget?.giveBack()
        } else if number < 0 {
            plan.retryBudget?.giveBack()
        }
    }

    /// The body of a copy that began has returned `copy` (`nil`: it threw). The copy counts the
    /// call as a dependent if it can be asked; it is kept for the call's vote, or, if the call
    /// is over, voted on now, before this thread leaves and so before the result resolves.
    /// Returns whether the call goes on.
    func finishStarting(_ copy: FutureStorage<Value>?) -> Bool {
        // Counted outside the lock: a compare-and-swap on the copy's own record.
        var linked: FutureStorage<Value>?
        if let copy, copy.propagatesRequests, copy.addDependent() { linked = copy }
        let goesOn = withLock { () -> Bool in
            guard !over else { return false }
            if let linked {
                if firstLinked == nil {
                    firstLinked = linked
                } else {
                    // Moved out, appended to and put back, not appended to in place: an access
                    // to a stored variable that spans a call the compiler cannot see into (the
                    // unspecialised append) makes Swift check every access to that variable for
                    // exclusivity at run time, the one in `conclude` on every call included
                    // (about 75 instructions).
                    var later = laterLinked.take() ?? []
                    later.append(linked)
                    laterLinked = later
                }
            }
            starting -= 1
            return true
        }
        if goesOn { return true }
        linked?.receiveVote()
        leave()
        return false
    }

    /// A thread that held the result back is done; the last one resolves it with the end.
    private func leave() {
        var end: End?
        withLock {
            starting -= 1
            guard starting == 0 else { return }
            end = pendingEnd
            pendingEnd = nil
        }
        if let end { resolve(end.kind, copying: end.source, error: end.error) }
    }

    /// The timer of the next copy; nothing if the call is over or every copy has started.
    /// `number` is the copy just sent.
    func scheduleNextCopy(after number: Int) {
        guard delay > .zero else { return hedge() }
        // One reading for the deadline and the timer: the call's own, for its first copy.
        let now = number == 1 && firstTimerFromBegin ? clock.instant(atNanoseconds: beganAt) : clock.now
        // A copy due at or after the deadline would not start: no timer for it.
        if let deadline, deadline.isPassed(after: delay, from: now) { return }
        let entry = DeadlineEntry(deadline: now + delay) { self.hedge() }
        let scheduling = schedule(entry, if: { !over && started < plan.copies && wait == nil }, remember: { wait = $0 })
        // No timer thread: no hedge can start in time, but the copies running may still answer.
        if case .failed = scheduling {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingPolicy.delay"),
                details: ["given": "\(delay)", "used": "no further copy (the timer thread is unavailable)"])
        }
    }

    /// The delay passed with no copy fulfilled: the next copy, if the budget lets it through.
    private func hedge() {
        // A timer that fired late, or a delay of zero, at or after the deadline: no copy.
        let late = isPastDeadline
        let number = withLock { () -> Int? in
            wait = nil
            guard !over, started < plan.copies, !late else { return nil }
            started += 1
            live += 1
            return started
        }
        guard let number else { return }
        guard plan.values.budget?.withdraw() ?? true else { return refused(number) }
        execute(number)
    }

    /// Ends the call, unless it is over, as `source` did (fulfilled or cancelled) or with
    /// `kind` and `error`: no copy begins after this, the next copy's timer is taken out, and
    /// every linked copy gets its vote, on this thread, before the result resolves: here, or, if
    /// bodies are still starting, when the last of them has voted on its own copy.
    ///
    /// `endedAt`: the time now on `clock`, if the caller has read it.
    ///
    /// `countingFirst`: the first copy, let through by the breaker, fulfilled the call, and is
    /// counted there now (see `countFirst(answeredBeforeHedge:)`).
    func conclude(
        _ kind: OutcomeKind, copying source: FutureStorage<Value>? = nil, error: (any Error)? = nil,
        endedAt: Int64? = nil, countingFirst: Bool = false
    ) {
        // Taken into locals rather than returned: see `End`.
        var first: AnyObject?
        var later: [FutureStorage<Value>]?
        var timer: DeadlineEntry?
        var retryTimer: DeadlineEntry?
        var beforeHedge = false
        let deferred = withLock { () -> Bool? in
            // The first copy alone began, and the second's timer has not fired. Matched, not
            // compared with `nil`: a comparison copies the entry (a retain and a release).
            if countingFirst, started == 1, case .some = wait { beforeHedge = true }
            guard !over else { return nil }
            over = true
            first = firstLinked.take()
            later = laterLinked
            laterLinked = nil
            timer = wait.take()
            retryTimer = retryWait.take()
            guard starting > 0 else { return false }
            pendingEnd = End(kind: kind, source: source, error: error)
            starting += 1  // this thread, until its votes are cast
            return true
        }
        // Counted whether or not this thread ended the call, before the result resolves.
        let endedAt = countingFirst ? countFirst(answeredBeforeHedge: beforeHedge) : endedAt
        guard let deferred else { return }
        if let timer { _ = clock.cancel(timer) }
        // A retry whose wait is taken out never begins: its token comes back (one the timer
        // took runs, and finds the call over).
        if let retryTimer, clock.cancel(retryTimer) { plan.retryBudget?.giveBack() }
        if timesLatency, let latencies { record(kind, into: latencies, endedAt: endedAt ?? clock.nanosecondsNow) }
        // Votes on copies that resolved already (the winner among them) change nothing.
        if let first { unsafeDowncast(first, to: FutureStorage<Value>.self).receiveVote() }
        if let later {
            for copy in later { copy.receiveVote() }
        }
        if deferred { leave() } else { resolve(kind, copying: source, error: error) }
    }

    /// Counts this call's latency into the adaptive delay: its time when a fulfilment decided it
    /// (exact if the first copy won; if a later copy did, the first copy's latency is known only
    /// to be at least this), or when it ended otherwise after waiting at least the delay (a
    /// latency at least this long: the first copy was still pending). A call that failed or was
    /// stopped sooner tells nothing about how long its copy would have taken.
    private func record(_ kind: OutcomeKind, into latencies: Unmanaged<LatencyPercentile>, endedAt end: Int64) {
        let elapsed = end &- beganAt
        guard kind == .fulfilled || elapsed >= delayNanoseconds else { return }
        latencies._withUnsafeGuaranteedRef { $0.record(nanoseconds: elapsed) }
    }

    /// Resolves the result: once, by the thread that ended the call or the last body to return
    /// after it.
    private func resolve(_ kind: OutcomeKind, copying source: FutureStorage<Value>?, error: (any Error)?) {
        settle(result, source, kind, error)
    }

    /// A request reached the result: the call is cancelled, after every pending copy is asked
    /// (see `conclude`). Returns without waiting for a body that runs meanwhile.
    var stopAction: @Sendable () -> Void { { self.stop() } }

    func stop() {
        conclude(.cancelled)
    }
}
