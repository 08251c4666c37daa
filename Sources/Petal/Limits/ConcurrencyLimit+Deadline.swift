/// A request's deadline in a ``ConcurrencyLimit``'s queue: an operation that waits leaves the
/// queue at its deadline, rejected with the deadline's ``Deadline/exceededError``.
///
/// Why a timer per waiter, and only then: an operation admitted at once pays nothing but the
/// refusal check, and a queued one without a deadline nothing more than a `nil` check. (One
/// run on a context other than `.inline` takes the queue's path even when a slot is free: with
/// a deadline bound it makes the timer's entry, and drops it unset when admitted.) The
/// timer takes the waiter out through the same removal a cancellation request uses, under the
/// queue's lock, so a hand-over and the deadline never both win it.
extension ConcurrencyLimit {
    /// Arms `waiter` to leave the queue at the current deadline, failing `result`; nothing
    /// without a deadline. The timer is set only if the waiter is queued (see `enter`).
    func expire<Value>(_ waiter: LimitWaiter, failing result: FutureStorage<Value>) {
        guard let deadline = Deadline.current else { return }
        let error = deadline.exceededError
        // Unchecked: resolved only through its claim, from whichever thread.
        let target = UncheckedSendableBox(result)
        let entry = DeadlineEntry(deadline: deadline.instant) { [self] in
            guard leave(waiter) else { return }
            _ = target.value.fail(.rejected, error: error)
        }
        waiter.expiry = LimitExpiry(entry: entry, scheduler: deadline.clock.scheduler)
    }
}

/// The timer that takes a waiting operation out of a ``ConcurrencyLimit``'s queue at its
/// request's deadline.
struct LimitExpiry {
    let entry: DeadlineEntry
    let scheduler: DeadlineScheduler

    /// Sets the timer; the caller holds the queue's lock (the timer's lock nests inside it, and
    /// the timer never calls out with its own held).
    ///
    /// - Returns: `false` if there is no timer thread to keep it: the operation then waits as
    ///   one without a deadline does (see ``reportUnkept()``).
    func schedule() -> Bool {
        do {
            try scheduler.schedule(entry)
            return true
        } catch {
            return false
        }
    }

    /// Says that a waiting operation's deadline could not be kept; the request's own timeout,
    /// which cannot be kept either, fails at once with the reason.
    static func reportUnkept() {
        PetalDiagnostics.report(
            .named(.adjustedArgument, "Deadline"),
            details: ["used": "no limit wait ended by the deadline (the timer thread is unavailable)"])
    }

    /// Takes the timer out, if it is still set: removing it drops its action.
    func cancel() {
        _ = scheduler.cancel(entry)
    }
}
