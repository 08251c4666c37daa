import CPetal
import Dispatch

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
    public func wait() -> Outcome<Value> {
        if let outcome = peekAfterRunningDeferredWork() { return outcome }
        let resolved = DispatchSemaphore(value: 0)
        storage.subscribe(.resolved { _ in resolved.signal() })
        resolved.wait()
        return storage.peek().unsafelyUnwrapped
    }

    /// Blocks the calling thread until the future resolves or `timeout` elapses.
    ///
    /// A timeout of zero or less only looks: it never blocks and leaves nothing behind. A timeout
    /// too long to express as a deadline (beyond about 292 years) waits as ``wait()`` does.
    ///
    /// - Returns: The outcome, or `nil` if the future was still pending when the timeout
    ///   elapsed. The future is not affected by the timeout: it may still resolve later.
    public func wait(timeout: Duration) -> Outcome<Value>? {
        if let outcome = peekAfterRunningDeferredWork() { return outcome }
        guard timeout > .zero else { return nil }
        guard let deadline = DispatchTime.petalDeadline(after: timeout) else { return wait() }
        let resolved = DispatchSemaphore(value: 0)
        storage.subscribe(.resolved { _ in resolved.signal() })
        guard resolved.wait(timeout: deadline) == .success else { return storage.peek() }
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

extension DispatchTime {
    /// The uptime deadline `duration` (positive) from now, or `nil` when it lies beyond what
    /// `DispatchTime` can express, in which case the caller waits without one. Saturating:
    /// durations near or past `Int64.max` seconds neither wrap into the past nor trap.
    static func petalDeadline(after duration: Duration) -> DispatchTime? {
        // libdispatch keeps the top two bits of a time for its clock kinds (wall clock,
        // monotonic): a larger uptime would be read as another clock's time. Checked before
        // `components`, which traps for durations beyond Int64.max seconds.
        let latestUptime: UInt64 = 1 << 62
        guard duration < .nanoseconds(Int64(latestUptime)) else { return nil }
        let (seconds, attoseconds) = duration.components
        let nanoseconds = UInt64(clamping: seconds) * 1_000_000_000 + UInt64(clamping: attoseconds / 1_000_000_000)
        let deadline = DispatchTime.now().uptimeNanoseconds.addingReportingOverflow(nanoseconds)
        guard !deadline.overflow, deadline.partialValue < latestUptime else { return nil }
        return DispatchTime(uptimeNanoseconds: deadline.partialValue)
    }
}
