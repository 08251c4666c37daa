/// What a policy of repeated attempts gives the loop that runs it: ``RetryPolicy`` and
/// ``HedgingPolicy``.
protocol AttemptPolicy: Sendable {
    /// The budget each call deposits into when it begins and each attempt after the first
    /// spends from.
    var budget: RetryBudget? { get }
    /// Reports each property out of its range, once per call.
    func reportAdjustments()
    /// Whether a call on `clock` reads it as it begins whatever its deadline (a delay that
    /// follows the latency times the call from there; a breaker on the same time counts the
    /// first copy from there): then its deadline is checked with that reading.
    func timesCalls(on clock: DeadlineClock) -> Bool
}

extension RetryPolicy {
    func timesCalls(on _: DeadlineClock) -> Bool { false }
}

extension HedgingPolicy {
    /// With a breaker that keeps the clock's time, the reading is the first copy's start and its
    /// timer's origin (see `HedgeLoop.sendFirstCounted`): without it, a fixed delay through a
    /// breaker read the clock for each, two readings a call where one serves.
    @inline(__always)
    func timesCalls(on clock: DeadlineClock) -> Bool {
        plan.latencyWords != nil || plan.keepsBreakerTime(with: clock)
    }
}

extension RetryPolicy: AttemptPolicy {}
extension HedgingPolicy: AttemptPolicy {}

extension AttemptPolicy {
    /// Reports a wait out of `0...DeadlineClock.longestWait`, which the loops read as no wait or
    /// as the longest: a ``RetryPolicy``'s delays and a ``HedgingPolicy``'s.
    static func reportAdjustment(of delay: Duration, as parameter: StaticString) {
        if delay < .zero {
            PetalDiagnostics.report(
                .named(.adjustedArgument, parameter), details: ["given": "\(delay)", "used": "no wait"])
        } else if delay > DeadlineClock.longestWait {
            PetalDiagnostics.report(
                .named(.adjustedArgument, parameter),
                details: ["given": "\(delay)", "used": "DeadlineClock.longestWait (\(DeadlineClock.longestWait))"])
        }
    }
}

/// The shape `retrying` and `hedging` share: one call that starts attempts of `body` on a
/// context, on a timer and after failures, within a request's deadline and a ``RetryBudget``,
/// until one answers or the call is stopped.
///
/// Why it exists: the two loops begin, run an attempt on their context, and wait on the shared
/// timer in the same way, and each of those steps has a subtle order (the request's deadline
/// before the budget, the cancellation action before the first attempt, a wait scheduled under
/// the lock that a request takes). This protocol holds each step once.
///
/// What stays in each loop, and why: the state machine. A retry runs one attempt at a time and
/// holds as little as it can between attempts (see `retrying`'s memory note); a hedged call runs
/// several copies at once, links each for the vote, and defers its end to the last copy still
/// starting (a request on a retry waits for a `body` that is running; one on a hedged call does
/// not, as each documents). One machine for both would give a waiting retry the hedge's counters
/// and lists, and a hedged call, its fastest path measured in instructions, the retry's checks.
///
/// Cost: every method here is `@inline(__always)`, so that each is compiled into the concrete
/// loop that calls it: no witness table, no metadata look-up. Callgrind, per hedged call, before
/// and after this protocol and the lock-free budget: 12,521 and 12,216 instructions, 86 atomics
/// and 10 allocations both. The one closure that begins here, the stop, is made by each loop
/// (`stopAction`).
protocol AttemptLoop<Value>: AnyObject, Sendable {
    associatedtype Value
    associatedtype Context: ExecutionContext
    associatedtype Policy: AttemptPolicy
    /// What the loop takes from its caller's specialised code to resolve its result and watch
    /// its attempts: a hedged call's `ResultHooks`; nothing for a retry.
    associatedtype Hooks

    /// `began` is the clock's reading (`DeadlineClock.nanosecondsNow`) as the call began, if
    /// `begin` took one: for the deadline, or because the policy times its calls
    /// (``AttemptPolicy/timesCalls(on:)``).
    init(
        result: FutureStorage<Value>, hooks: Hooks, policy: borrowing Policy, context: Context,
        clock: DeadlineClock, deadline: HeldDeadline?, began: Int64?,
        body: @escaping @Sendable () throws -> Future<Value>)

    /// Where attempts run.
    var context: Context { get }
    /// The clock that keeps the waits and the deadline.
    var clock: DeadlineClock { get }
    /// The request's deadline on `clock`, if one was bound: no attempt starts at or after it.
    var deadline: HeldDeadline? { get }

    /// Runs attempt `number` (1 is the first) on this thread, now.
    func run(_ number: Int)
    /// Attempt `number` was counted and never began (the call was over when its turn came, or
    /// `context` dropped it): nothing was sent, so an attempt that took a budget's token gives
    /// it back.
    func notStarted(_ number: Int)
    /// Ends the call cancelled with `error`, unless it is over already.
    func cancel(with error: any Error)
    /// A request reached the call's future.
    func stop()
    /// `stop()`, as the action that a request on the call's future runs. A requirement, so that
    /// the closure is made in the concrete loop: one made here would capture this protocol's
    /// witness table and the loop's metadata besides (48 bytes more per waiting retry,
    /// measured).
    var stopAction: @Sendable () -> Void { get }
}

extension AttemptLoop {
    /// Begins a call of `policy` on `context`: refused at once if the request's deadline has
    /// passed (before the budget counts the call: no call was made), else reported, deposited
    /// in the budget (unless it begins inside an attempt of a loop on the same budget: see
    /// `RetryBudget+Nesting`), and its first attempt run.
    ///
    /// `result` is the call's future and `hooks` what the loop resolves it and watches its
    /// attempts with (see `ResultHooks`), both made by the caller: its public
    /// entry point is inlinable, so that the caller's specialised code makes them, and names
    /// `Self` in calling this, from caches of its own. Here, unspecialised, the loop's and the
    /// result's types would be looked up at run time on every call, and the result's waiters
    /// would run through look-ups of their own (callgrind: about 330 instructions each). A call
    /// refused by the deadline drops `result` unresolved, which frees it.
    @inline(__always)
    static func begin(
        _ policy: Policy, on context: Context, clock: DeadlineClock, into result: consuming FutureStorage<Value>,
        hooks: Hooks, _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        let deadline = Deadline.inUse ? Deadline.held(on: clock) : nil
        // One reading of the clock for the deadline's check and whatever else the call times
        // as it begins (a hedged call's first timer and its latency): each costs about 20 ns.
        let began = deadline != nil || policy.timesCalls(on: clock) ? clock.nanosecondsNow : nil
        if let deadline, let began, deadline.hasPassed(at: clock.instant(atNanoseconds: began)) {
            return .refused(by: deadline.exceededError)
        }
        policy.reportAdjustments()
        // Nested in an attempt of a loop on the same budget: that loop paid for this call.
        if let budget = policy.budget, !budget.isRunningAttempt { budget.deposit() }
        // Checked here: passing `body` through the generic `carrying` would cost two
        // reabstraction thunks (128 bytes) even with no carrier.
        let body = CallbackContext.isEnabled ? CallbackContext.carrying(body) : body
        let loop = Self(
            result: copy result, hooks: hooks, policy: policy, context: context,
            clock: clock, deadline: deadline, began: began, body: body)
        result.markPropagating()
        // The answer to a request: the loop asks its attempts itself, then cancels the result.
        // Votes registered as actions of the result would run after this one, once the result
        // was cancelled and its observers had run.
        result.addCancellationAction(loop.stopAction)
        loop.execute(1)
        return Future(storage: result)
    }

    /// Runs attempt `number` on `context`: inline at once, with no closure, on `.inline`.
    @inline(__always)
    func execute(_ number: Int) {
        if Context.self == InlineExecutionContext.self {
            run(number)
        } else {
            context.execute({ self.run(number) }, ifDropped: { self.dropped(number) })
        }
    }

    /// `context` dropped attempt `number`: it never ran, and the call is cancelled with the drop
    /// (a context that drops work drops the rest of the call's with it, so waiting for another
    /// attempt would wait for nothing).
    @inline(__always)
    func dropped(_ number: Int) {
        notStarted(number)
        cancel(with: DroppedWorkError(droppedBy: Context.self))
    }

    /// This loop's stripe of `StripedLock`: loops have no lock of their own, so that a call
    /// holds as little as it can.
    @inline(__always)
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try StripedLock.withLock(for: self, body)
    }

    /// Whether an attempt starting now would start at or after the request's deadline. Read
    /// outside the lock: a manual clock's time is behind a lock of its own.
    @inline(__always)
    var isPastDeadline: Bool {
        deadline?.hasPassed ?? false
    }

    /// Schedules `entry` on the timer under this loop's lock if `shouldWait` holds there, and
    /// hands it to `remember` (still under the lock), so that a request either comes first (no
    /// wait starts) or finds the wait in the timer and takes it out at once, rather than leaving
    /// it (and this loop) there until its deadline. The timer's lock nests inside this one; the
    /// timer never calls out with its own lock held.
    @inline(__always)
    func schedule(
        _ entry: DeadlineEntry, if shouldWait: () -> Bool, remember: (DeadlineEntry) -> Void
    ) -> WaitScheduling {
        withLock { () -> WaitScheduling in
            guard shouldWait() else { return .skipped }
            do throws(TimerUnavailableError) {
                try clock.schedule(entry)
            } catch {
                return .failed(error)
            }
            remember(entry)
            return .scheduled
        }
    }
}

/// What became of a wait that an attempt loop asked the timer for.
enum WaitScheduling {
    /// The entry is on the timer.
    case scheduled
    /// The loop declined it under its lock (stopped, decided): the entry never runs.
    case skipped
    /// No timer thread: the entry never runs.
    case failed(TimerUnavailableError)
}
