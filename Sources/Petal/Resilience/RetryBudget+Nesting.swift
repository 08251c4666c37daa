import CPetal

/// Loops on one budget nested in each other: `retrying` around `hedging` (or the reverse), both
/// with the same ``RetryBudget``, as a service that retries its failures and hedges its slow
/// calls writes them.
///
/// Why: a budget bounds extra calls to a share of the *first* calls. Each loop deposits that
/// share when it begins; an inner loop begins inside an attempt of the outer one, so without
/// this the one backend call would deposit twice, and the bound would be (1 + 2 × share), not
/// (1 + share) (measured in the example service: 10.0% extra calls on a 5% budget while its
/// backend was slow). The call an inner loop starts first *is* the outer loop's attempt: a
/// first call that the outer loop paid its share for, or a retry or copy it drew a token for.
///
/// How: while a loop on a budget runs one attempt's `body`, this thread notes the budget (a
/// C thread-local, `petal_attempt_budget`); a loop that begins on the same budget while it is
/// noted deposits nothing. Only that synchronous run is marked: an inner loop's later copies and
/// retries are its own extra calls, and draw tokens as any do. Loops on different budgets are
/// independent, as before.
extension RetryBudget {
    /// The budget's identity for the thread's note: its address, unretained (a loop that notes
    /// it holds it). Computed once per loop, so that noting it retains nothing.
    var attemptMark: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Whether this thread is running an attempt of a loop on this budget.
    var isRunningAttempt: Bool { petal_attempt_budget_current().pointee == attemptMark }
}

/// Runs `body` (one attempt's start) with `mark` (a budget's ``RetryBudget/attemptMark``, or
/// `nil` for a loop without a budget, which notes nothing) noted on this thread, then restores
/// what was noted before (an outer loop's budget, or none).
@inline(__always)
func runningAttempt<Result>(of mark: UnsafeRawPointer?, _ body: () throws -> Result) rethrows -> Result {
    guard let mark else { return try body() }
    // Never null (the thread-local's own address); typed so, rather than implicitly unwrapped.
    let slot: UnsafeMutablePointer<UnsafeRawPointer?> = petal_attempt_budget_current()
    let outer = slot.pointee
    slot.pointee = mark
    defer { slot.pointee = outer }
    return try body()
}
