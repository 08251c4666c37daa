import CPetal

/// Blocking on a future. Prefer callbacks (or `await`, where available): a blocked thread does
/// nothing else. Never wait on a future from a thread that must run to resolve it, for example
/// from an inline callback of the very resolution you wait for, or on a serial queue that its
/// producer needs.
extension Future {
    /// Blocks the calling thread until the future resolves, then returns its outcome.
    ///
    /// Returns at once, without blocking, if the future is already resolved. Unlike a blocking
    /// `await` that returns only the value, the outcome keeps the error or indirect error: nothing
    /// is lost.
    ///
    /// On a thread that ``BlockingWaits/check`` forbids to block (an event loop's, with
    /// PetalNIO), stops the program with a message saying so, resolved or not, rather than stall
    /// or deadlock the loop.
    public func wait() -> Outcome<Value> {
        BlockingWaits.precheck()
        if let outcome = peekAfterRunningDeferredWork() { return outcome }
        _ = ParkingLot.bucket(for: storage.cell).sleep(until: nil, on: storage.cell)
        return storage.peek().unsafelyUnwrapped
    }

    /// Blocks the calling thread until the future resolves or `timeout` elapses.
    ///
    /// A wait that times out leaves nothing behind: the future keeps no record of it, so a
    /// thread may poll a future that never resolves as often as it likes. A timeout of zero or
    /// less only looks, without blocking; one longer than ``DeadlineClock/longestWait`` (a
    /// century) waits that long, and is reported as an ``PetalDiagnostic/Kind/adjustedArgument``.
    ///
    /// - Returns: The outcome, or `nil` if the future was still pending when the timeout
    ///   elapsed. The future is not affected by the timeout: it may still resolve later.
    public func wait(timeout: Duration) -> Outcome<Value>? {
        if timeout > .zero { BlockingWaits.precheck() }
        if let outcome = peekAfterRunningDeferredWork() { return outcome }
        guard timeout > .zero else { return nil }
        let deadline = ContinuousClock.now.advanced(
            by: DeadlineClock.boundedWait(timeout, for: "Future.wait(timeout:)"))
        guard ParkingLot.bucket(for: storage.cell).sleep(until: deadline, on: storage.cell) else { return nil }
        return storage.peek().unsafelyUnwrapped
    }

    /// The outcome, if the future is resolved, or resolves through work this thread has deferred.
    ///
    /// Why: a wait from deep inside nested inline callbacks (or from deferred work while more is
    /// queued) may be waiting for work the trampoline deferred to this thread's outermost frame,
    /// the frame that is about to block. That work runs now, in its order, instead.
    private func peekAfterRunningDeferredWork() -> Outcome<Value>? {
        if let outcome = storage.peek() { return outcome }
        petal_trampoline_run_deferred()
        return storage.peek()
    }
}
