#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Retrying: start work again when it fails, a bounded number of times.
extension Future {
    /// Runs `body` and returns a future of the first attempt that succeeds, starting it again
    /// while its future is rejected, as `policy` allows: up to `policy.attempts` attempts in all,
    /// after the waits it computes, for the rejections it accepts.
    ///
    /// - Where and when: the first attempt runs on `context` at once (with `.inline`, on this
    ///   thread before this returns); each later one runs on `context` after the previous
    ///   attempt's future was rejected with an error `policy` accepts, once the policy's wait has
    ///   passed (with no wait, at once). Waits are kept by `clock`: by default Petal's one
    ///   shared timer thread, with no thread or timer per retry; a manual clock in tests.
    /// - Returns: a future fulfilled with the first fulfilled attempt's value; rejected with the
    ///   last attempt's error when all attempts were rejected, when `policy` declines an error,
    ///   or when `body` threw; cancelled, without retrying, when an attempt's future is cancelled
    ///   (a cancellation is not a failure to retry), with its indirect error.
    /// - A cancellation request on the returned future stops retrying: the current attempt's
    ///   future is asked to cancel, no further attempt starts once the request returns, and the
    ///   returned future is cancelled, also when the request overlaps an attempt's rejection.
    ///   A request that arrives while another thread runs `body` waits for `body` to return,
    ///   then asks the attempt it started: keep `body` to starting the work.
    /// - A request's deadline: with a ``Deadline`` bound here (``Deadline/current``) and kept by
    ///   `clock`, a call asked for once it has passed is refused before the first attempt: the
    ///   returned future is rejected with its ``Deadline/exceededError``. A rejection whose wait
    ///   before the next attempt would end at or after the deadline gives up at once, rejected
    ///   with that attempt's error: the next attempt could not start in time, and waiting for a
    ///   deadline only to fail then would hold the caller for nothing (and the attempt's error
    ///   says more than a timeout would). The attempt running at the deadline runs on: the
    ///   request's own timeout ends it. A deadline of another clock is ignored (see
    ///   <doc:Deadlines>); every attempt, including one started from the timer thread, runs with
    ///   the deadline that was current here.
    /// - A budget bounds the retries of every call that shares it: with `policy.budget`, each
    ///   call deposits its share when it begins, and each retry takes a token when the
    ///   rejection before it is handled, before the wait. When the budget refuses, the retrying
    ///   gives up at once, rejected with the last attempt's error: a backend that is down sees
    ///   at most (1 + share) times its usual calls, plus the burst, whatever `policy.attempts`
    ///   says. A retry that never starts (a request came during its wait, `context` dropped it,
    ///   no timer thread) gives its token back, so ``RetryBudget/extraCallsSent`` counts the
    ///   retries whose `body` ran.
    /// - Any policy is accepted: a value out of its range (`attempts` below 1, a `multiplier` or
    ///   `jitter` that is not a number, a wait past ``DeadlineClock/longestWait``) is read as
    ///   ``RetryPolicy`` documents (`attempts: 0` runs `body` once) and reported here, once per
    ///   call, as an ``PetalDiagnostic/Kind/adjustedArgument``. Nothing in the policy can trap later, on the timer
    ///   thread or in a callback.
    /// - Memory: a retry waiting between attempts holds about 510 bytes (measured on Linux,
    ///   x86_64): the returned future (about 80), the loop that holds the policy (its budget
    ///   included), `context`, `clock` and `body` (about 180), the future's cancellation record and action (about 100),
    ///   and the timer's deadline entry with its action (about 100), plus what `body` captures.
    ///   The failed attempt's future and error are not kept, nor a lock: retries share a table
    ///   of locks. Everything is released when the retrying future resolves.
    ///
    /// - Parameters:
    ///   - policy: How many attempts, the waits between them, and which errors to retry.
    ///   - context: Where `body` runs.
    ///   - clock: The clock that keeps the waits between attempts.
    ///   - body: Starts one attempt and returns its future.
    @inlinable
    public static func retrying<Context: ExecutionContext>(
        _ policy: RetryPolicy, on context: Context = .inline, clock: DeadlineClock = .continuous,
        _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        // Inlined, so that the caller's types name the loop and the result (see `begin`).
        RetryLoop<Value, Context>.call(policy, on: context, clock: clock, into: .makePending(), body)
    }

    /// Runs `body` up to `attempts` times while its future is rejected, waiting `delay` between
    /// attempts: ``retrying(_:on:clock:_:)`` with a fixed wait, retrying every rejection.
    public static func retrying<Context: ExecutionContext>(
        attempts: Int, delay: Duration? = nil, on context: Context = .inline, clock: DeadlineClock = .continuous,
        _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        retrying(RetryPolicy(attempts: attempts, initialDelay: delay ?? .zero), on: context, clock: clock, body)
    }

    /// Starts a job that `makeJob` makes, with `input`, and starts a new one while they fail, as
    /// ``retrying(_:on:clock:_:)`` does with futures: a job is single-use, so every attempt is a
    /// fresh job, added to `pool` if one is given.
    public static func retrying<Input, Context: ExecutionContext>(
        _ policy: RetryPolicy, on context: Context = .inline, clock: DeadlineClock = .continuous,
        pool: CancellationPool? = nil, with input: Input, makingJob makeJob: @escaping @Sendable () -> Job<Input, Value>
    ) -> Future<Value> {
        // Every attempt gets the same input; it is only read.
        let handOff = UncheckedSendableBox(input)
        return retrying(policy, on: context, clock: clock) {
            Future.start(running: makeJob(), with: handOff.value, pool: pool)
        }
    }
}

/// The state of one `retrying` call: which attempt runs, and whether to stop.
///
/// Why it exists: attempts start from callbacks on other threads and from the shared timer, and
/// a cancellation request must reach whichever attempt is current.
@usableFromInline
final class RetryLoop<Value, Context: ExecutionContext>: AttemptLoop, @unchecked Sendable {
    // @unchecked: `result` is resolved only through its claim; `current`, `wait` and `stopped`
    // only under this object's stripe of `StripedLock` (no lock of its own: a retry between
    // attempts should hold as little as it can); everything else is immutable.
    private let result: FutureStorage<Value>
    private let policy: RetryPolicy
    let context: Context
    let clock: DeadlineClock
    let deadline: HeldDeadline?
    private let body: @Sendable () throws -> Future<Value>
    /// The current attempt's future while it is pending (dropped once it resolves, so that a
    /// wait does not keep a failed attempt and its error alive).
    private var current: FutureStorage<Value>?
    /// The deadline of the wait before the next attempt.
    private var wait: DeadlineEntry?
    /// The thread running `body` for an attempt that has begun, until `body` returns.
    private var starter: pthread_t?
    /// Whether a request stopped the retrying. After `starter`, so that it takes the byte
    /// beside the optional's tag rather than a word of its own.
    private var stopped = false

    /// Whether another thread than this one is running `body`; call with the lock held.
    private var isStartingElsewhere: Bool {
        guard let starter else { return false }
        return pthread_equal(starter, pthread_self()) == 0
    }

    /// A retry takes no hooks: one waiting between attempts holds as little as it can (see
    /// `retrying`'s memory note), and the two closures were 32 bytes more. It resolves its
    /// result and watches its attempts unspecialised.
    typealias Hooks = Void

    init(
        result: FutureStorage<Value>, hooks _: Void, policy: borrowing RetryPolicy, context: Context,
        clock: DeadlineClock, deadline: HeldDeadline?, began: Int64?,
        body: @escaping @Sendable () throws -> Future<Value>
    ) {
        self.result = result
        self.policy = copy policy
        self.context = context
        self.clock = clock
        self.deadline = deadline
        self.body = body
    }

    /// `Future.retrying`'s call, into `result` (see `AttemptLoop.begin`).
    @usableFromInline
    static func call(
        _ policy: RetryPolicy, on context: Context, clock: DeadlineClock, into result: consuming FutureStorage<Value>,
        _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        begin(policy, on: context, clock: clock, into: result, hooks: (), body)
    }

    func cancel(with error: any Error) {
        result.fail(.cancelled, error: error)
    }

    /// Every attempt after the first took a token when its rejection was handled.
    func notStarted(_ number: Int) {
        if number > 1 { policy.budget?.giveBack() }
    }

    func run(_ number: Int) {
        // The attempt begins under the lock that `stop()` takes: a request either comes first
        // (no attempt begins) or waits for `body` to return (see `stop()`).
        let begins = withLock { () -> Bool in
            guard !stopped else { return false }
            starter = pthread_self()
            return true
        }
        guard begins else { return notStarted(number) }
        let attempt: Future<Value>
        do {
            // The budget's note read here, not kept: a waiting retry holds as little as it can.
            attempt = try runningAttempt(of: policy.budget?.attemptMark, body)
        } catch {
            withLock { starter = nil }
            result.fail(.rejected, error: error)
            return
        }
        let stoppedMeanwhile = withLock {
            starter = nil
            current = attempt.storage
            return stopped
        }
        if stoppedMeanwhile { attempt.requestCancellation() }
        // A step, handed the attempt and its kind: no `Outcome` is built here.
        attempt.storage.subscribe(
            .step { attempt, kind in
                self.withLock { self.current = nil }
                guard kind == .rejected else {
                    self.result.resolve(copying: attempt, kind: kind)
                    return
                }
                let error = attempt.observedError ?? FutureCancelledError(indirectError: nil)
                // Stopped: the request cancels the result (`stop()`), as documented, even when it
                // came while this attempt was failing.
                if self.withLock({ self.stopped }) { return }
                let last = number >= max(1, self.policy.attempts) || !self.policy.isRetryable(error)
                if last {
                    self.result.fail(.rejected, error: error)
                } else {
                    self.scheduleAttempt(number + 1, after: error)
                }
            })
    }

    /// Waits before attempt `number`, which follows a rejection with `error`; gives up at once
    /// with `error` if the attempt would start at or after the deadline, or the budget refuses it.
    private func scheduleAttempt(_ number: Int, after error: any Error) {
        let delay = policy.delay(beforeAttempt: number, random: Double.random(in: 0..<1))
        // The deadline first: a retry that could not start in time takes no token.
        if let deadline, deadline.isPassed(after: delay) {
            result.fail(.rejected, error: error)
            return
        }
        guard policy.budget?.withdraw() ?? true else {
            result.fail(.rejected, error: error)
            return
        }
        guard delay > .zero else { return execute(number) }
        let wait = DeadlineEntry(deadline: clock.now + delay) { self.execute(number) }
        switch schedule(wait, if: { !stopped }, remember: { self.wait = $0 }) {
        case .scheduled:
            break
        case .skipped:
            notStarted(number)
        case .failed(let failure):
            // No timer thread to wait out the delay: the retry cannot happen as asked.
            notStarted(number)
            result.fail(.rejected, error: failure)
        }
    }

    /// A cancellation request reached the retrying future: no more attempts, ask the current
    /// one, and cancel the result.
    ///
    /// An attempt whose `body` another thread is running began before the request: the request
    /// waits for `body` to return (it only starts the work), so that when the request returns no
    /// attempt is beginning any more, and then asks that attempt's future. A request made by
    /// `body` itself, on its own thread, does not wait.
    var stopAction: @Sendable () -> Void { { self.stop() } }

    func stop() {
        var state = withLock { () -> (current: FutureStorage<Value>?, wait: DeadlineEntry?, starting: Bool) in
            stopped = true
            return (self.current, self.wait, isStartingElsewhere)
        }
        while state.starting {
            sched_yield()  // a hand-over of the core for as long as `body` runs, not a timed wait
            state = withLock { (self.current, self.wait, isStartingElsewhere) }
        }
        let (current, wait) = (state.current, state.wait)
        // A wait not scheduled yet, or already over, is not in the timer: nothing to remove. A
        // wait removed here never runs its attempt, whose token comes back; one the timer took
        // runs it, and `run` finds the request.
        if let wait, clock.cancel(wait) { policy.budget?.giveBack() }
        current?.requestCancellation()
        result.fail(.cancelled, error: nil)
    }
}
