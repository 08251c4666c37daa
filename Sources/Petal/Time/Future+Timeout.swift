/// Timeouts: a future that follows this one unless a deadline passes first.
///
/// Every pending timeout in the process shares one timer: one heap of deadlines and one thread,
/// Petal's timer thread, started on first use. No thread, timer or dispatch source is created per
/// future, and a future that resolves in time takes its deadline out of the heap at once, so
/// timeouts far longer than the work they guard cost nothing once the work is done.
///
/// A timeout never resolves its receiver: it may still resolve after the deadline, and its own
/// callbacks run as usual. But a timeout that fires gives up on the receiver's work: if that work
/// can be asked (a job's future, a promise with a cancellation handler, a chain onto one), the
/// timeout votes for its cancellation, so it stops unless another consumer still wants it; a
/// request on the timeout's own future cancels that future at once and votes the same way (see
/// <doc:Cancellation>). Pass `cancellingUpstream: false` to let the work run to its end.
///
/// Deadlines are kept by a ``DeadlineClock``: real time by default, or a manual clock that a test
/// advances.
extension Future {
    /// A future that follows this one unless it is still pending after `duration`, in which case
    /// it is rejected with a ``FutureTimeoutError``.
    ///
    /// What the returned future does:
    /// - this future is **fulfilled** in time with a value: fulfilled with that value;
    /// - this future is **rejected** in time with an error: cancelled, with that error as its
    ///   indirect error (the failure was upstream, not in the timeout);
    /// - this future is **cancelled** in time: cancelled with the same indirect error, if any;
    /// - the deadline passes first: **rejected** with a ``FutureTimeoutError`` carrying the
    ///   deadline and `duration`. A resolution of this future after that changes nothing.
    ///
    /// A request's ``Deadline`` bound here (``Deadline/current``) that comes before `duration`
    /// has passed, and is kept by `clock`, ends the wait instead: the returned future is then
    /// rejected with that deadline's ``Deadline/exceededError`` (its instant, and a `nil`
    /// duration: this future was not given `duration`), the error a handler answers every end of
    /// a request's time with. A deadline whose clock keeps another time (a manual clock's
    /// against a real one) cannot be compared with this one's, and is ignored. See <doc:Deadlines>.
    ///
    /// When this future is already resolved, or `duration` is zero or negative, the answer is
    /// decided at once and the returned future is already resolved: no timer is involved, and
    /// `context` is not used. A deadline already passed gives up on a pending receiver as any
    /// expiry does (by a vote, unless `cancellingUpstream` is `false`). A `duration` longer than ``DeadlineClock/longestWait`` (a century)
    /// is shortened to it and reported as an ``PetalDiagnostic/Kind/adjustedArgument``: any `Duration` is safe here.
    ///
    /// Where callbacks run: the returned future is resolved on `context`. With `.inline` (the
    /// default) that is the thread that resolves this future, or, when the deadline passes
    /// first, Petal's timer thread; the returned future's inline callbacks then run there, so
    /// keep them short (or pass a queue) to keep the timer thread free for other deadlines, and
    /// never block in them on another timeout: the timer thread would be waiting for itself.
    ///
    /// - Parameters:
    ///   - duration: How long this future may stay pending, from now, measured on `clock`.
    ///   - context: Where the returned future is resolved, and so where its inline callbacks
    ///     start.
    ///   - clock: The clock that keeps the deadline: real time by default; a manual clock in
    ///     tests.
    ///   - cancellingUpstream: Whether the deadline passing, or a request on the returned
    ///     future, asks this future's work to stop by a vote (the default); `false` lets it run.
    @inlinable
    public func timeout<Context: ExecutionContext>(
        after duration: Duration, on context: Context = .inline, clock: DeadlineClock = .continuous,
        cancellingUpstream: Bool = true
    ) -> Future<Value> {
        if let outcome = storage.peek() { return Self.following(outcome, of: self) }
        let now = clock.now
        let bounded = DeadlineClock.boundedWait(duration, for: "Future.timeout(after:)")
        return scheduledTimeout(
            at: now.advanced(by: bounded), duration: bounded, now: now, on: context, clock: clock,
            cancellingUpstream: cancellingUpstream)
    }

    /// A future that follows this one unless it is still pending at `deadline`, in which case it
    /// is rejected with a ``FutureTimeoutError``.
    ///
    /// What the returned future does:
    /// - this future is **fulfilled** in time with a value: fulfilled with that value;
    /// - this future is **rejected** in time with an error: cancelled, with that error as its
    ///   indirect error (the failure was upstream, not in the timeout);
    /// - this future is **cancelled** in time: cancelled with the same indirect error, if any;
    /// - the deadline passes first: **rejected** with a ``FutureTimeoutError`` carrying
    ///   `deadline`. A resolution of this future after that changes nothing.
    ///
    /// A request's ``Deadline`` bound here (``Deadline/current``) that comes before `deadline`,
    /// and is kept by `clock`, ends the wait instead: the returned future is then rejected with
    /// that deadline's ``Deadline/exceededError``. A deadline of another clock is ignored. See
    /// <doc:Deadlines>.
    ///
    /// When this future is already resolved, or `deadline` has already passed, the answer is
    /// decided at once and the returned future is already resolved: no timer is involved, and
    /// `context` is not used. A deadline already passed gives up on a pending receiver as any
    /// expiry does (by a vote, unless `cancellingUpstream` is `false`). A `deadline` more than ``DeadlineClock/longestWait`` (a century)
    /// away is moved in to it and reported as an ``PetalDiagnostic/Kind/adjustedArgument``.
    ///
    /// Where callbacks run: the returned future is resolved on `context`. With `.inline` (the
    /// default) that is the thread that resolves this future, or, when the deadline passes
    /// first, Petal's timer thread; the returned future's inline callbacks then run there, so
    /// keep them short (or pass a queue) to keep the timer thread free for other deadlines, and
    /// never block in them on another timeout: the timer thread would be waiting for itself.
    ///
    /// - Parameters:
    ///   - deadline: The instant by which this future must resolve, on `clock`.
    ///   - context: Where the returned future is resolved, and so where its inline callbacks
    ///     start.
    ///   - clock: The clock that keeps the deadline: real time by default; a manual clock in
    ///     tests.
    ///   - cancellingUpstream: Whether the deadline passing, or a request on the returned
    ///     future, asks this future's work to stop by a vote (the default); `false` lets it run.
    @inlinable
    public func timeout<Context: ExecutionContext>(
        at deadline: ContinuousClock.Instant, on context: Context = .inline, clock: DeadlineClock = .continuous,
        cancellingUpstream: Bool = true
    ) -> Future<Value> {
        if let outcome = storage.peek() { return Self.following(outcome, of: self) }
        let now = clock.now
        return scheduledTimeout(
            at: DeadlineClock.boundedDeadline(deadline, after: now, for: "Future.timeout(at:)"), duration: nil,
            now: now, on: context, clock: clock, cancellingUpstream: cancellingUpstream)
    }

    /// The timeout of a receiver seen pending, unless a request's deadline comes first (see
    /// ``scheduledTimeoutUnderDeadline(at:duration:now:on:clock:cancellingUpstream:)``): with
    /// no deadline ever bound, one load and a branch.
    @inlinable
    func scheduledTimeout<Context: ExecutionContext>(
        at deadline: ContinuousClock.Instant, duration: Duration?, now: ContinuousClock.Instant, on context: Context,
        clock: DeadlineClock, cancellingUpstream: Bool
    ) -> Future<Value> {
        if Deadline.inUse {
            return scheduledTimeoutUnderDeadline(
                at: deadline, duration: duration, now: now, on: context, clock: clock,
                cancellingUpstream: cancellingUpstream)
        }
        return keptTimeout(
            at: deadline, duration: duration, now: now, on: context, clock: clock,
            cancellingUpstream: cancellingUpstream)
    }

    /// The timeout of a receiver seen pending once deadlines are in use: a request's deadline
    /// that comes first ends the wait, with its own error (the duration asked for is not what
    /// this future was given). Specialised but never inlined, so that the common path keeps one
    /// copy of the timeout's body.
    @inlinable
    @inline(never)
    func scheduledTimeoutUnderDeadline<Context: ExecutionContext>(
        at deadline: ContinuousClock.Instant, duration: Duration?, now: ContinuousClock.Instant, on context: Context,
        clock: DeadlineClock, cancellingUpstream: Bool
    ) -> Future<Value> {
        let request = Deadline.currentInstant(before: deadline, on: clock)
        return keptTimeout(
            at: request ?? deadline, duration: request == nil ? duration : nil, now: now, on: context, clock: clock,
            cancellingUpstream: cancellingUpstream)
    }

    /// The timeout of a receiver seen pending, at `deadline`. Inlinable, as the entry points
    /// are, so that the timeout's own future and callbacks are specialised for the caller's
    /// value type: a service's request pays no run-time metadata lookups for them.
    @inlinable
    func keptTimeout<Context: ExecutionContext>(
        at deadline: ContinuousClock.Instant, duration: Duration?, now: ContinuousClock.Instant, on context: Context,
        clock: DeadlineClock, cancellingUpstream: Bool
    ) -> Future<Value> {
        let expired = FutureTimeoutError(deadline: deadline, duration: duration)
        // Unchecked: the timer thread resolves `output` with an error only and never touches a
        // value; a value moves only from the receiver's resolving thread (or `context`) to the
        // output's callbacks, exactly as it does for the receiver's own callbacks (see
        // `Callback.dispatching`).
        let output = UncheckedSendableBox(FutureStorage<Value>.makePending())
        let scheduler = clock.scheduler
        let entry = DeadlineEntry(deadline: deadline) {
            // Giving up: the receiver's work is asked (by vote) before the timeout's observers run.
            output.value.giveUpUpstream()
            Self.resolve(output.value, with: .rejected(expired), on: context)
        }
        // Linked before the deadline is scheduled: a deadline that passes at once must find the
        // link to vote through, or the receiver's work would wait for a vote that never comes.
        // Nobody can ask `output` before it is returned, so the entry is scheduled by then.
        if cancellingUpstream {
            // A request on the timeout's future takes the deadline's place: whoever takes the
            // entry out of the heap decides, here for a cancellation.
            var linked = false
            output.value.dependOnUpstream(storage, linked: &linked) {
                {
                    guard scheduler.cancel(entry) else { return }
                    Self.resolve(output.value, with: .cancelled(indirectError: nil), on: context)
                }
            }
        }
        guard deadline > now else { return Self.decided(output, with: expired) }
        // Scheduled before subscribing: a receiver resolving in between must find the entry to
        // remove, or the entry would stay in the heap until its deadline.
        do {
            try scheduler.schedule(entry)
        } catch {
            // No timer thread: the timeout cannot be kept, and saying so beats never firing.
            return Self.decided(output, with: error)
        }
        storage.subscribe(
            .resolved { outcome in
                // Whoever takes the entry out of the heap decides: here the receiver, in time.
                guard scheduler.cancel(entry) else { return }
                Self.resolve(output.value, with: Self.following(outcome), on: context)
            })
        return Future(storage: output.value)
    }

    /// A timeout decided before any deadline was kept (one already past, or no timer thread to
    /// keep it): rejected with `error` at once, on this thread, giving up on the receiver as an
    /// expiry does.
    @inlinable
    static func decided(
        _ output: UncheckedSendableBox<FutureStorage<Value>>, with error: any Error
    ) -> Future<Value> {
        output.value.giveUpUpstream()
        _ = output.value.resolve(with: .rejected(error))
        return Future(storage: output.value)
    }

    /// What a timeout's future does when the receiver resolves in time with `outcome`: the same,
    /// except that a rejection upstream is a cancellation here.
    @inlinable
    static func following(_ outcome: Outcome<Value>) -> Outcome<Value> {
        guard case .rejected(let error) = outcome else { return outcome }
        return .cancelled(indirectError: error)
    }

    /// The answer for a receiver already resolved with `outcome`: the receiver itself when the
    /// outcome carries over unchanged (no allocation), otherwise a new resolved future.
    @inlinable
    static func following(_ outcome: Outcome<Value>, of receiver: Future<Value>) -> Future<Value> {
        guard case .rejected(let error) = outcome else { return receiver }
        return .cancelled(withIndirectError: error)
    }

    /// Resolves `output` on `context`, silently if it is already resolved.
    @inlinable
    static func resolve<Context: ExecutionContext>(
        _ output: FutureStorage<Value>, with outcome: Outcome<Value>, on context: Context
    ) {
        if Context.self == InlineExecutionContext.self {
            // Already inside a callback or the timer thread's loop: no trampoline hop needed.
            _ = output.resolve(with: outcome)
            return
        }
        // Unchecked for the reason given in `timeout(at:duration:now:on:)`.
        let work = UncheckedSendableBox((output, outcome))
        context.execute({ _ = work.value.0.resolve(with: work.value.1) }, ifDropped: dropped(output, by: context))
    }
}
