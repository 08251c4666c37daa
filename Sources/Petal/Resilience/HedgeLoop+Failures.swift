/// A hedged call's failed copies: what a rejection (or a `body` that threw) leads to — the next
/// copy at once, a retry after its wait, or, once nothing is left to send, the call's end with
/// the last error — and the copies the budget or the deadline refused.
extension HedgeLoop {
    /// A copy was rejected (or its `body` threw): sent again after a wait if the retry policy
    /// accepts the error (see `retryLater`); else the next copy at once if the hedging policy
    /// accepts it and copies and budget remain; the call rejected if the policy declines it, or
    /// with the last error once no copy is left.
    func copyFailed(_ error: any Error) {
        if let retry = plan.values.retry, retry.isRetryable(error) { return retryLater(after: error, under: retry) }
        guard plan.values.isRetryable(error) else { return conclude(.rejected, error: error) }
        // Past the deadline no copy starts: this failure is then the last hope's, if no copy is
        // pending.
        let late = isPastDeadline
        // Counted before the budget is asked, so that the timer cannot start the same copy.
        let next = withLock { () -> (number: Int?, last: Bool) in
            lastError = error
            live -= 1
            guard !over else { return (nil, false) }
            guard started < plan.copies, !late else { return (nil, live == 0) }
            started += 1
            live += 1
            return (started, false)
        }
        guard let number = next.number else {
            if next.last { conclude(.rejected, error: error) }
            return
        }
        guard plan.values.budget?.withdraw() ?? true else { return refused(number) }
        // The next copy starts now, sooner than its timer: the timer goes (the copy schedules
        // the one for the copy after it).
        let timer = withLock { () -> DeadlineEntry? in
            defer { wait = nil }
            return wait
        }
        if let timer { _ = clock.cancel(timer) }
        execute(number)
    }

    /// A copy rejected with an error `retry` accepts: the same call sent again after the
    /// policy's wait (a copy numbered below zero), while retries, time before the deadline and
    /// the budget remain, the wait's timer taking the place of the failed copy's next hedge if no
    /// other copy is pending (the retry schedules its own when it is sent). Otherwise this
    /// failure is the copy's last word: the call is rejected with it if no copy is left.
    func retryLater(after error: any Error, under retry: RetryPolicy) {
        var hedgeTimer: DeadlineEntry?
        let next = withLock { () -> (number: Int?, last: Bool) in
            lastError = error
            live -= 1
            guard !over else { return (nil, false) }
            guard retried < Swift.max(retry.attempts, 1) - 1 else { return (nil, live == 0) }
            retried += 1
            if live == 0 { hedgeTimer = wait.take() }
            live += 1
            return (-retried, false)
        }
        if let hedgeTimer { _ = clock.cancel(hedgeTimer) }
        guard let number = next.number else {
            if next.last { conclude(.rejected, error: error) }
            return
        }
        let delay = retry.delay(beforeAttempt: 1 - number, random: Double.random(in: 0..<1))
        // A retry that could not begin before the deadline takes no token.
        if let deadline, deadline.isPassed(after: delay) { return refused(number) }
        guard plan.retryBudget?.withdraw() ?? true else { return refused(number) }
        guard delay > .zero else { return execute(number) }
        let entry = DeadlineEntry(deadline: clock.now + delay) { self.retryDue(number) }
        switch schedule(entry, if: { !over && retryWait == nil }, remember: { retryWait = $0 }) {
        case .scheduled:
            break
        case .skipped:
            notStarted(number)
            refused(number)
        case .failed(let failure):
            // No timer thread to wait out the delay: the retry cannot happen as asked.
            notStarted(number)
            withLock { lastError = failure }
            refused(number)
        }
    }

    /// The wait before retry `number` is over.
    func retryDue(_ number: Int) {
        withLock { retryWait = nil }
        execute(number)
    }

    /// The budget (or the deadline) refused copy `number`, just counted: it is not counted any
    /// more, and if it was the last hope, the call is rejected with the last error.
    func refused(_ number: Int) {
        let lastError = withLock { () -> (any Error)? in
            if number < 0 { retried -= 1 } else { started -= 1 }
            live -= 1
            return live == 0 && !over ? self.lastError : nil
        }
        if let lastError { conclude(.rejected, error: lastError) }
    }
}
