#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
    /// - The losers: once the future is decided, every copy still pending whose producer can be
    ///   asked (a job's future, a promise with a cancellation handler, a chain onto one) gets a
    ///   cancellation vote, exactly once, so its work stops unless another consumer still wants
    ///   it; the timer of the next copy is taken out.
    /// - A cancellation request on the returned future stops hedging as it stops retrying: no
    ///   copy starts once the request returns, every pending copy gets its vote, and the returned
    ///   future is cancelled. A request that arrives while another thread runs `body` waits for
    ///   `body` to return: keep `body` to starting the work.
    /// - Any policy is accepted: a value out of its range (`copies` below 1 or above
    ///   ``HedgingPolicy/maximumCopies``, a negative `delay`) is read as ``HedgingPolicy``
    ///   documents and reported here, once per call, as an ``PetalDiagnostic/Kind/adjustedArgument``.
    /// - Cost: a call fulfilled before its delay pays for the returned future, one loop object,
    ///   the timer's entry (scheduled and taken out) and the budget's lock, if any.
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
        policy.reportAdjustments()
        policy.budget?.deposit()
        let result = FutureStorage<Value>.makePending()
        let body = CallbackContext.isEnabled ? CallbackContext.carrying(body) : body
        let loop = HedgeLoop(result: result, policy: policy, context: context, clock: clock, body: body)
        result.markPropagating()
        // The loop's own answer first: once the list is closed (a request, or the loop's own
        // decision), no copy starts and the timer is taken out; then the copies' votes run.
        result.addCancellationAction { loop.stop() }
        loop.begin()
        return Future(storage: result)
    }
}

/// The state of one `hedging` call: how many copies started and are pending, the next copy's
/// timer, and whether the call is over.
///
/// Why it exists: copies start from the timer thread, from callbacks on other threads and from
/// the caller, and the first fulfilment or a request must reach every one of them.
final class HedgeLoop<Value, Context: ExecutionContext>: @unchecked Sendable {
    // @unchecked: `result` is resolved only through its claim; the variables only under this
    // object's stripe of `StripedLock`; everything else is immutable.
    private let result: FutureStorage<Value>
    private let copies: Int
    private let delay: Duration
    private let budget: HedgingBudget?
    private let isRetryable: @Sendable (any Error) -> Bool
    private let context: Context
    private let clock: DeadlineClock
    private let body: @Sendable () throws -> Future<Value>
    /// Copies begun or about to begin (counted when decided, so that the timer and a rejection
    /// never start the same copy twice).
    private var started = 0
    /// Copies counted in `started` that have not failed yet: pending, or about to begin. The
    /// call is rejected when the last of them fails.
    private var live = 0
    /// The error of the last copy rejected, for when no copy is left.
    private var lastError: (any Error)?
    /// The timer of the next copy.
    private var wait: DeadlineEntry?
    /// Whether the call is over: decided by a copy, or asked to stop.
    private var over = false
    /// Whether a copy decided the call (then the request's answer must not cancel the result).
    private var decided = false
    /// The thread running `body` for a copy that has begun, until `body` returns.
    private var starter: pthread_t?

    init(
        result: FutureStorage<Value>, policy: HedgingPolicy, context: Context, clock: DeadlineClock,
        body: @escaping @Sendable () throws -> Future<Value>
    ) {
        self.result = result
        copies = policy.boundedCopies
        delay = policy.boundedDelay
        budget = policy.budget
        isRetryable = policy.isRetryable
        self.context = context
        self.clock = clock
        self.body = body
    }

    private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try StripedLock.withLock(for: self, body)
    }

    /// Whether another thread than this one is running `body`; call with the lock held.
    private var isStartingElsewhere: Bool {
        guard let starter else { return false }
        return pthread_equal(starter, pthread_self()) == 0
    }

    /// Starts the first copy.
    func begin() {
        withLock {
            started = 1
            live = 1
        }
        startCopy(1)
    }

    /// Runs copy `number` on the context.
    private func startCopy(_ number: Int) {
        if Context.self == InlineExecutionContext.self {
            run(number)
        } else {
            context.execute(
                { self.run(number) },
                ifDropped: { self.decide(.cancelled(indirectError: DroppedWorkError(droppedBy: Context.self))) })
        }
    }

    private func run(_ number: Int) {
        let begins = withLock { () -> Bool in
            guard !over else {
                live -= 1
                return false
            }
            starter = pthread_self()
            return true
        }
        guard begins else { return }
        let copy: Future<Value>
        do {
            copy = try body()
        } catch {
            withLock { starter = nil }
            return copyFailed(error)
        }
        withLock { starter = nil }
        // Counted on the copy and voted on when the call is over: at once if it is over already
        // (the action list is closed then), else by whoever closes it.
        copy.storage.linkIfPropagating(result)
        let source = UncheckedSendableBox(copy.storage)
        copy.storage.subscribe(
            .resolved { outcome in
                switch outcome {
                case .fulfilled:
                    self.decide(copying: source.value, kind: .fulfilled)
                case .cancelled:
                    self.decide(copying: source.value, kind: .cancelled)
                case .rejected(let error):
                    self.copyFailed(error)
                }
            })
        // After the subscription: a copy that was already fulfilled has decided the call, and
        // needs no timer.
        if number < copies { scheduleNextCopy() }
    }

    /// The timer of the next copy; nothing if the call is over or every copy has started.
    private func scheduleNextCopy() {
        guard delay > .zero else { return hedge() }
        let entry = DeadlineEntry(deadline: clock.now + delay) { self.hedge() }
        let failure = withLock { () -> TimerUnavailableError? in
            guard !over, started < copies, wait == nil else { return nil }
            do throws(TimerUnavailableError) {
                try clock.scheduler.schedule(entry)
            } catch {
                return error
            }
            wait = entry
            return nil
        }
        // No timer thread: no hedge can start in time, but the copies running may still answer.
        if failure != nil {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingPolicy.delay"),
                details: ["given": "\(delay)", "used": "no further copy (the timer thread is unavailable)"])
        }
    }

    /// The delay passed with no copy fulfilled: the next copy, if the budget lets it through.
    private func hedge() {
        let number = withLock { () -> Int? in
            wait = nil
            guard !over, started < copies else { return nil }
            started += 1
            live += 1
            return started
        }
        guard let number else { return }
        guard budget?.withdraw() ?? true else { return refused() }
        startCopy(number)
    }

    /// A copy was rejected (or its `body` threw): the next copy at once if the policy accepts
    /// the error and copies and budget remain; the call rejected if the policy declines it, or
    /// with the last error once no copy is left.
    private func copyFailed(_ error: any Error) {
        guard isRetryable(error) else { return decide(.rejected(error)) }
        // Counted before the budget is asked, so that the timer cannot start the same copy.
        let next = withLock { () -> (number: Int?, last: Bool) in
            lastError = error
            live -= 1
            guard !over else { return (nil, false) }
            guard started < copies else { return (nil, live == 0) }
            started += 1
            live += 1
            return (started, false)
        }
        guard let number = next.number else {
            if next.last { decide(.rejected(error)) }
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
        startCopy(number)
    }

    /// The budget refused the copy just counted: it is not counted any more, and if it was
    /// the last hope, the call is rejected with the last error.
    private func refused() {
        let lastError = withLock { () -> (any Error)? in
            started -= 1
            live -= 1
            return live == 0 && !over ? self.lastError : nil
        }
        if let lastError { decide(.rejected(lastError)) }
    }

    /// Ends the call with `outcome` (a failure), unless it is over.
    private func decide(_ outcome: Outcome<Never>) {
        guard claimDecision() else { return }
        switch outcome {
        case .rejected(let error): result.fail(.rejected, error: error)
        case .cancelled(let indirectError): result.fail(.cancelled, error: indirectError)
        }
    }

    /// Ends the call with the outcome of the copy `source`, unless it is over.
    private func decide(copying source: FutureStorage<Value>, kind: OutcomeKind) {
        guard claimDecision() else { return }
        result.resolve(copying: source, kind: kind)
    }

    /// Whether this thread decides the call; if so, the other copies have been given up on
    /// (their votes cast, the timer out) before it returns, and so before the result resolves.
    private func claimDecision() -> Bool {
        let claimed = withLock { () -> Bool in
            guard !over else { return false }
            over = true
            decided = true
            return true
        }
        if claimed { result.giveUpUpstream() }
        return claimed
    }

    /// The action list of the result was closed: by a request (the call is cancelled) or by
    /// the loop's own decision. No copy starts after this returns; the timer is taken out.
    func stop() {
        var state = withLock { () -> (wait: DeadlineEntry?, starting: Bool, decided: Bool) in
            over = true
            defer { wait = nil }
            return (wait, isStartingElsewhere, decided)
        }
        while state.starting {
            sched_yield()  // a hand-over of the core for as long as `body` runs, not a timed wait
            state.starting = withLock { isStartingElsewhere }
        }
        if let wait = state.wait { _ = clock.scheduler.cancel(wait) }
        if !state.decided { result.fail(.cancelled, error: nil) }
    }
}
