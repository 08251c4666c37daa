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
    ///   if `policy.budget` lets it through. On `.inline`, with a deadline, an adaptive delay
    ///   or a breaker that keeps `clock`'s time, the first copy's delay counts from the call's
    ///   start, whose one reading of the clock serves them all (`body` is expected to return
    ///   at once).
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
    /// - Retries and a breaker, in the same loop: with ``HedgingPolicy/retry``, a copy rejected
    ///   with an error that policy accepts is sent again after its wait (before
    ///   ``HedgingPolicy/isRetryable`` is asked), while its attempts, the deadline and its budget
    ///   allow, and hedged as the first copy was; with ``HedgingPolicy/breaker``, every copy is
    ///   let through or refused by the breaker and its outcome counted, as `breaker.run` would
    ///   (see <doc:CircuitBreakers>).
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
    @inlinable
    public static func hedging<Context: ExecutionContext>(
        _ policy: HedgingPolicy, on context: Context = .inline, clock: DeadlineClock = .continuous,
        _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        // Inlined, so that the caller's types name the loop and the result (see `begin`).
        HedgeLoop<Value, Context>.call(policy, on: context, clock: clock, into: .makePending(), hooks: .init(), body)
    }
}
