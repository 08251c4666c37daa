#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
/// How: while a loop on a budget runs one attempt's `body`, this thread notes the budget; a loop
/// that begins on the same budget while it is noted deposits nothing. Only that synchronous run
/// is marked: an inner loop's later copies and retries are its own extra calls, and draw tokens
/// as any do. Loops on different budgets are independent, as before.
extension RetryBudget {
    /// The budget whose attempt this thread is running, if any (not retained: the loop that set
    /// it holds it).
    private static let attemptKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// Whether this thread is running an attempt of a loop on this budget.
    var isRunningAttempt: Bool {
        // Typed as an optional: the import's implicitly unwrapped one would trap on a thread
        // that noted nothing.
        let noted: UnsafeMutableRawPointer? = pthread_getspecific(Self.attemptKey)
        return noted == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Runs `body` (one attempt's start) with this budget noted on this thread, then restores
    /// what was noted before (an outer loop's budget, or none).
    @inline(__always)
    func runningAttempt<Result>(_ body: () throws -> Result) rethrows -> Result {
        let outer: UnsafeMutableRawPointer? = pthread_getspecific(Self.attemptKey)
        pthread_setspecific(Self.attemptKey, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(Self.attemptKey, outer) }
        return try body()
    }
}
