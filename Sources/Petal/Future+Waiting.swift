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
        if let outcome = storage.peek() { return outcome }
        let resolved = DispatchSemaphore(value: 0)
        storage.subscribe(.resolved { _ in resolved.signal() })
        resolved.wait()
        return storage.peek().unsafelyUnwrapped
    }

    /// Blocks the calling thread until the future resolves or `timeout` elapses.
    ///
    /// - Returns: The outcome, or `nil` if the future was still pending when the timeout
    ///   elapsed. The future is not affected by the timeout: it may still resolve later.
    public func wait(timeout: Duration) -> Outcome<Value>? {
        if let outcome = storage.peek() { return outcome }
        let resolved = DispatchSemaphore(value: 0)
        storage.subscribe(.resolved { _ in resolved.signal() })
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let total = nanoseconds.overflow ? Int64.max : nanoseconds.partialValue &+ max(0, attoseconds) / 1_000_000_000
        let deadline = DispatchTime.now() + .nanoseconds(Int(clamping: total))
        guard resolved.wait(timeout: deadline) == .success else { return storage.peek() }
        return storage.peek().unsafelyUnwrapped
    }
}
