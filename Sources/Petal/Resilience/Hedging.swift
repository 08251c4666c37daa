/// Hedging: send another copy of a call that is slow to answer, take the first answer, and ask
/// the other copies to stop.
extension Future {
    /// Runs `body` and, while none of the copies it started has been fulfilled, runs it again
    /// every `policy.delay`, up to `policy.copies` copies; returns a future of the first copy
    /// fulfilled, and asks every other copy to stop.
    ///
    /// ```swift
    /// let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget)
    /// let value = Future.hedging(policy) { backend.fetch(key) }
    /// ```
    ///
    /// Hedging trades a few extra calls for the tail of the latency ("The Tail at Scale", Dean
    /// and Barroso, 2013): a call that the backend lost, or queued behind a slow one, is answered
    /// by its copy, so the caller waits about the delay plus an ordinary answer, not for its
    /// deadline. Only idempotent calls can be hedged.
    ///
    /// - Where and when: the first copy runs on `context` at once (with `.inline`, on this thread
    ///   before this returns); each later one runs on `context` when the copy before it has
    ///   been pending for `policy.delay` (kept by `clock`, by default Petal's one shared timer
    ///   thread), or at once when a copy is rejected with an error `policy.isRetryable` accepts,
    ///   if `policy.budget` lets it through.
    /// - Returns: a future fulfilled with the first copy's value to arrive; rejected with a
    ///   copy's error when `policy` declines it, when `body` throws an error `policy` declines,
    ///   or when every copy was rejected and no more may start (the last error); cancelled, with
    ///   its indirect error, when a copy is cancelled (a cancellation is not a failure to hedge).
    /// - The losers are asked first: once the call is decided, every copy still pending whose
    ///   producer can be asked (a job's future, a promise with a cancellation handler, a chain
    ///   onto one) gets a cancellation vote, exactly once, so its work stops unless another
    ///   consumer still wants it; the timer of the next copy is taken out. The votes are cast
    ///   before the returned future resolves, so its observers find the losers already asked,
    ///   as a combinator's and a timeout's do. A copy whose `body` was still running when the
    ///   call was decided (on another thread, or the `body` that decided it) is asked as soon as
    ///   that `body` returns, and the returned future resolves after it, on that thread.
    /// - A cancellation request on the returned future stops hedging as it stops retrying: no
    ///   copy starts once the request returns, every pending copy gets its vote, and then the
    ///   returned future is cancelled. A request does not wait for a `body` that is running:
    ///   the future is cancelled when that `body` returns, once its copy is asked. Keep `body`
    ///   to starting the work.
    /// - The budget counts what was sent: `policy.budget` lets each copy after the first
    ///   through when it is decided, and a copy that never starts (the call was decided while
    ///   it waited for `context`, or `context` dropped it) gives its token back, so
    ///   ``RetryBudget/extraCallsSent`` counts the extra copies whose `body` ran.
    /// - Any policy is accepted: a value out of its range (`copies` below 1 or above
    ///   ``HedgingPolicy/maximumCopies``, a negative `delay`) is read as ``HedgingPolicy``
    ///   documents and reported here, once per call, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    /// - A request's deadline: with a ``Deadline`` bound here (``Deadline/current``) and kept by
    ///   `clock`, a call asked for once it has passed is refused before `body` runs: the returned
    ///   future is rejected with its ``Deadline/exceededError``, and the budget counts no call.
    ///   No copy starts at or after the deadline: no timer is set for a copy that would be due
    ///   then, and a copy whose turn comes then (a timer that fired late, a rejection, a
    ///   `context` that ran it late) does not begin, takes no token from the budget (or gives it
    ///   back), and, if no copy is left pending, the call is rejected with the last copy's error.
    ///   The copies already sent run on: the request's own timeout ends the call. A deadline of
    ///   another clock is ignored (see <doc:Deadlines>); every copy, including one started from
    ///   the timer thread, runs with the deadline that was current here.
    /// - Cost: a call fulfilled before its delay pays for the returned future, one loop object
    ///   (which also keeps the copy to ask: nothing more is allocated for it), the timer's entry
    ///   (scheduled and taken out) and the budget's deposit, if any (one atomic load when its
    ///   bucket is full).
    ///
    /// - Parameters:
    ///   - policy: How many copies, the delay between them, which rejections start the next at
    ///     once, and the budget.
    ///   - context: Where `body` runs.
    ///   - clock: The clock that keeps the delays.
    ///   - body: Starts one copy of the call and returns its future.
    public static func hedging<Context: ExecutionContext>(
        _ policy: HedgingPolicy, on context: Context = .inline, clock: DeadlineClock = .continuous,
        _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        HedgeLoop<Value, Context>.begin(policy, on: context, clock: clock, body)
    }
}

/// The state of one `hedging` call: how many copies started and are pending, the copies to ask
/// when the call is over, the next copy's timer, and whether the call is over.
///
/// Why it exists: copies start from the timer thread, from callbacks on other threads and from
/// the caller, and the first fulfilment or a request must reach every one of them before the
/// call's own future resolves.
///
/// The order, all under this object's lock: a body begins only while the call is not over, and
/// is counted in `starting` until its copy is linked. The thread that ends the call takes every
/// linked copy and votes on each; if bodies are still starting, the last of them to return
/// votes on its copy and then resolves the result. So no copy that began is asked after the
/// result resolves, and nobody waits for a body.
final class HedgeLoop<Value, Context: ExecutionContext>: AttemptLoop, @unchecked Sendable {
    // @unchecked: `result` is resolved once, by whoever takes the end (`conclude` or the last
    // `leave`); the variables only under this object's stripe of `StripedLock`; everything
    // else is immutable.
    private let result: FutureStorage<Value>
    private let copies: Int
    private let delay: Duration
    /// The policy's adaptive delay, which this call's latency is recorded into, and when the
    /// call began (both `nil` for a fixed delay).
    private let latencies: LatencyPercentile?
    private let beganAt: ContinuousClock.Instant?
    private let budget: RetryBudget?
    /// `budget`'s note for the copies' bodies (see `RetryBudget+Nesting`).
    private let budgetMark: UnsafeRawPointer?
    private let isRetryable: @Sendable (any Error) -> Bool
    let context: Context
    let clock: DeadlineClock
    let deadline: HeldDeadline?
    private let body: @Sendable () throws -> Future<Value>
    /// Copies begun or about to begin (counted when decided, so that the timer and a rejection
    /// never start the same copy twice). The first copy is decided by the call itself.
    private var started = 1
    /// Copies counted in `started` that have not failed yet: pending, or about to begin. The
    /// call is rejected when the last of them fails.
    private var live = 1
    /// The error of the last copy rejected, for when no copy is left.
    private var lastError: (any Error)?
    /// The timer of the next copy.
    private var wait: DeadlineEntry?
    /// Whether the call is over: decided by a copy, or asked to stop. No body begins after.
    private var over = false
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
        result: FutureStorage<Value>, policy: HedgingPolicy, context: Context, clock: DeadlineClock,
        deadline: HeldDeadline?, body: @escaping @Sendable () throws -> Future<Value>
    ) {
        self.result = result
        copies = policy.boundedCopies
        if let adaptive = policy.adaptiveDelay {
            latencies = adaptive
            delay = adaptive.delay
            beganAt = clock.now
        } else {
            latencies = nil
            delay = policy.boundedDelay
            beganAt = nil
        }
        // Read once: each read of `policy.budget` is a retain and a release.
        let budget = policy.budget
        self.budget = budget
        budgetMark = budget?.attemptMark
        isRetryable = policy.isRetryable
        self.context = context
        self.clock = clock
        self.deadline = deadline
        self.body = body
    }

    /// `context` dropped copy `number`: the call is cancelled with the drop.
    func dropped(_ number: Int) {
        notStarted(number)
        conclude(.cancelled, error: DroppedWorkError(droppedBy: Context.self))
    }

    func run(_ number: Int) {
        // A later copy that `context` ran at or after the deadline (the call itself checked the
        // first): not sent, as if the budget had refused it.
        if number > 1, isPastDeadline {
            notStarted(number)
            return refused()
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
        let copy: Future<Value>
        do {
            copy = try runningAttempt(of: budgetMark, body)
        } catch {
            guard finishStarting(nil) else { return }
            return copyFailed(error)
        }
        guard finishStarting(copy.storage) else { return }
        let source = UncheckedSendableBox(copy.storage)
        copy.storage.subscribe(
            .resolved { outcome in
                switch outcome {
                case .fulfilled:
                    self.conclude(.fulfilled, copying: source.value)
                case .cancelled:
                    self.conclude(.cancelled, copying: source.value)
                case .rejected(let error):
                    self.copyFailed(error)
                }
            })
        // After the subscription: a copy that was already fulfilled has decided the call, and
        // needs no timer.
        if number < copies { scheduleNextCopy() }
    }

    /// A copy counted in `started` never began (the call was over when its turn came, or its
    /// context dropped it): nothing was sent, so an extra copy gives its token back.
    private func notStarted(_ number: Int) {
        if number > 1 { budget?.giveBack() }
    }

    /// The body of a copy that began has returned `copy` (`nil`: it threw). The copy counts the
    /// call as a dependent if it can be asked; it is kept for the call's vote, or, if the call
    /// is over, voted on now, before this thread leaves and so before the result resolves.
    /// Returns whether the call goes on.
    private func finishStarting(_ copy: FutureStorage<Value>?) -> Bool {
        // Counted outside the lock: a compare-and-swap on the copy's own record.
        var linked: FutureStorage<Value>?
        if let copy, copy.propagatesRequests, copy.addDependent() { linked = copy }
        let goesOn = withLock { () -> Bool in
            guard !over else { return false }
            if let linked {
                if firstLinked == nil {
                    firstLinked = linked
                } else if laterLinked == nil {
                    laterLinked = [linked]
                } else {
                    laterLinked?.append(linked)
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
    private func scheduleNextCopy() {
        guard delay > .zero else { return hedge() }
        // A copy due at or after the deadline would not start: no timer for it.
        if let deadline, deadline.isPassed(after: delay) { return }
        let entry = DeadlineEntry(deadline: clock.now + delay) { self.hedge() }
        let scheduling = schedule(entry, if: { !over && started < copies && wait == nil }, remember: { wait = $0 })
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
            guard !over, started < copies, !late else { return nil }
            started += 1
            live += 1
            return started
        }
        guard let number else { return }
        guard budget?.withdraw() ?? true else { return refused() }
        execute(number)
    }

    /// A copy was rejected (or its `body` threw): the next copy at once if the policy accepts
    /// the error and copies and budget remain; the call rejected if the policy declines it, or
    /// with the last error once no copy is left.
    private func copyFailed(_ error: any Error) {
        guard isRetryable(error) else { return conclude(.rejected, error: error) }
        // Past the deadline no copy starts: this failure is then the last hope's, if no copy is
        // pending.
        let late = isPastDeadline
        // Counted before the budget is asked, so that the timer cannot start the same copy.
        let next = withLock { () -> (number: Int?, last: Bool) in
            lastError = error
            live -= 1
            guard !over else { return (nil, false) }
            guard started < copies, !late else { return (nil, live == 0) }
            started += 1
            live += 1
            return (started, false)
        }
        guard let number = next.number else {
            if next.last { conclude(.rejected, error: error) }
            return
        }
        guard budget?.withdraw() ?? true else { return refused() }
        // The next copy starts now, sooner than its timer: the timer goes (the copy schedules
        // the one for the copy after it).
        let timer = withLock { () -> DeadlineEntry? in
            defer { wait = nil }
            return wait
        }
        if let timer { _ = clock.scheduler.cancel(timer) }
        execute(number)
    }

    /// The budget refused the copy just counted: it is not counted any more, and if it was
    /// the last hope, the call is rejected with the last error.
    private func refused() {
        let lastError = withLock { () -> (any Error)? in
            started -= 1
            live -= 1
            return live == 0 && !over ? self.lastError : nil
        }
        if let lastError { conclude(.rejected, error: lastError) }
    }

    /// Ends the call, unless it is over, as `source` did (fulfilled or cancelled) or with
    /// `kind` and `error`: no copy begins after this, the next copy's timer is taken out, and
    /// every linked copy gets its vote, on this thread, before the result resolves: here, or, if
    /// bodies are still starting, when the last of them has voted on its own copy.
    private func conclude(_ kind: OutcomeKind, copying source: FutureStorage<Value>? = nil, error: (any Error)? = nil) {
        // Taken into locals rather than returned: see `End`.
        var first: AnyObject?
        var later: [FutureStorage<Value>]?
        var timer: DeadlineEntry?
        let deferred = withLock { () -> Bool? in
            guard !over else { return nil }
            over = true
            first = firstLinked.take()
            later = laterLinked
            laterLinked = nil
            timer = wait.take()
            guard starting > 0 else { return false }
            pendingEnd = End(kind: kind, source: source, error: error)
            starting += 1  // this thread, until its votes are cast
            return true
        }
        guard let deferred else { return }
        if let timer { _ = clock.scheduler.cancel(timer) }
        if let latencies, let beganAt { record(kind, since: beganAt, into: latencies) }
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
    private func record(_ kind: OutcomeKind, since beganAt: ContinuousClock.Instant, into latencies: LatencyPercentile)
    {
        let elapsed = beganAt.duration(to: clock.now)
        if kind == .fulfilled || elapsed >= delay { latencies.record(elapsed) }
    }

    /// Resolves the result: once, by the thread that ended the call or the last body to return
    /// after it.
    private func resolve(_ kind: OutcomeKind, copying source: FutureStorage<Value>?, error: (any Error)?) {
        if let source {
            result.resolve(copying: source, kind: kind)
        } else {
            result.fail(kind, error: error)
        }
    }

    /// A request reached the result: the call is cancelled, after every pending copy is asked
    /// (see `conclude`). Returns without waiting for a body that runs meanwhile.
    var stopAction: @Sendable () -> Void { { self.stop() } }

    func stop() {
        conclude(.cancelled)
    }
}
