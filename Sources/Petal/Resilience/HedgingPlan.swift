/// A ``HedgingPolicy``'s values, in one object that every copy of the policy shares, with what
/// a hedged call derives from them worked out once.
///
/// Why: a policy is made once and read by every call. Held by value, its nine fields were
/// copied into each call's loop, and, in the loop's code (compiled once for every `Value` and
/// `Context`), its optional references were copied through their value witnesses, about 120
/// instructions each; its values, and its retry policy's, were checked on every call
/// (callgrind, a hedged call with a retry and a breaker: about 800 instructions in all). A
/// call now takes the plan with one retain, and checks whether it needs reporting with one load.
///
/// Immutable: setting a property of the policy makes a new plan.
final class HedgingPlan: @unchecked Sendable {
    // @unchecked: every property is a `let` of a `Sendable` type but `budgetMark`, an address
    // used only as an identity (compared, never read through), of a budget `values` holds.
    /// A policy's values, as given.
    struct Values: Sendable {
        var copies: Int
        var delay: Duration
        var adaptiveDelay: LatencyPercentile?
        var budget: RetryBudget?
        var isRetryable: @Sendable (any Error) -> Bool
        var retry: RetryPolicy?
        var breaker: CircuitBreaker?
    }

    /// ``HedgingPolicy/copies`` brought into `1...maximumCopies`.
    let copies: Int
    /// ``HedgingPolicy/delay`` brought into `0...DeadlineClock.longestWait`.
    let delay: Duration
    /// `delay` in nanoseconds: what a call compares its latency with.
    let delayNanoseconds: Int64
    /// `budget`'s note for the copies' bodies (see `RetryBudget+Nesting`).
    let budgetMark: UnsafeRawPointer?
    /// What retries draw on: the retry policy's budget, or the hedging policy's.
    let retryBudget: RetryBudget?
    /// Whether every value, the retry policy's included, is in its range: nothing to report.
    let isInRange: Bool
    /// `values.breaker` and `values.adaptiveDelay`, unretained, for the path every call takes:
    /// read strongly there, each retained and released the shared object several times a call
    /// (callgrind: 10 retains and releases more a call than a hedge with neither), and every
    /// call of every thread wrote its count. Unretained is safe: `values` holds both for as
    /// long as this plan lives, and a call holds the plan.
    let breaker: Unmanaged<CircuitBreaker>?
    let adaptiveDelay: Unmanaged<LatencyPercentile>?
    /// The policy's values, as given. Last: the derived values above are what a call reads, and
    /// they share the object's first cache lines (see `CircuitBreaker.word`).
    let values: Values

    init(_ values: Values) {
        self.values = values
        copies = Swift.min(Swift.max(values.copies, 1), HedgingPolicy.maximumCopies)
        delay = Swift.min(Swift.max(values.delay, .zero), DeadlineClock.longestWait)
        delayNanoseconds = delay.truncatedNanoseconds
        budgetMark = values.budget?.attemptMark
        retryBudget = values.retry?.budget ?? values.budget
        breaker = values.breaker.map { .passUnretained($0) }
        adaptiveDelay = values.adaptiveDelay.map { .passUnretained($0) }
        isInRange =
            copies == values.copies && (values.adaptiveDelay != nil || delay == values.delay)
            && values.retry?.isInRange ?? true
    }
}
