import CPetal

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
    // @unchecked: every property is a `let` of a `Sendable` type but three addresses and an
    // unretained clock. `budgetMark` is a budget's address used only as an identity (compared,
    // never read through). `breakerWords` and `latencyWords` are read only through C atomics,
    // as their owners read them. `breakerClock` is only compared, never read through. `values`
    // holds every object they point into.
    /// A policy's values, as given.
    struct Values: Sendable {
        /// First: the one value every call reads (its deposit), in the line after the derived
        /// values'.
        var budget: RetryBudget?
        var copies: Int
        var delay: Duration
        var adaptiveDelay: LatencyPercentile?
        var isRetryable: @Sendable (any Error) -> Bool
        var retry: RetryPolicy?
        var breaker: CircuitBreaker?
    }

    // What every call reads comes first, in the object's first cache line: in a server a call's
    // start and its answer come milliseconds apart, with other requests' work between them, so
    // every line it touches is likely a miss (see `CircuitBreaker.word`). Then what a call reads
    // only with a breaker or an adaptive delay, or only when a copy fails.

    /// The breaker's state word and its window's success mask (`CircuitBreaker.hotWords`), or
    /// `nil` without a breaker: a call in calm is admitted, and its first copy's fulfilment
    /// found not sampled, from this address alone, without loading the breaker's own line.
    /// Valid while `values` holds the breaker.
    let breakerWords: UnsafeMutablePointer<petal_atomic_word>?
    /// The adaptive delay's words (`LatencyPercentile.hotWords`), or `nil` for a fixed delay:
    /// a call reads its delay and whether it is timed from here. Valid while `values` holds it.
    let latencyWords: UnsafeMutablePointer<petal_atomic_word>?
    /// `delay` in nanoseconds: what a call compares its latency with.
    let delayNanoseconds: Int64
    /// `budget`'s note for the copies' bodies (see `RetryBudget+Nesting`).
    let budgetMark: UnsafeRawPointer?
    /// ``HedgingPolicy/copies`` brought into `1...maximumCopies`.
    let copies: Int
    /// Whether every value, the retry policy's included, is in its range: nothing to report.
    let isInRange: Bool
    /// Whether the breaker's clock is real time (`CircuitBreaker.readsRealTime`).
    let breakerReadsRealTime: Bool
    /// The breaker's slow-call duration in nanoseconds (`CircuitBreaker.slowCallNanoseconds`);
    /// 0 without a breaker.
    let breakerSlowCallNanoseconds: Int64
    /// The breaker's clock, unretained (the breaker holds it), for whether a call's reading
    /// serves the breaker too (see `keepsBreakerTime(with:)`).
    let breakerClock: Unmanaged<DeadlineClock>?
    /// `values.breaker` and `values.adaptiveDelay`, unretained, for the path every call takes:
    /// read strongly there, each retained and released the shared object several times a call
    /// (callgrind: 10 retains and releases more a call than a hedge with neither), and every
    /// call of every thread wrote its count. Unretained is safe: `values` holds both for as
    /// long as this plan lives, and a call holds the plan.
    let breaker: Unmanaged<CircuitBreaker>?
    let adaptiveDelay: Unmanaged<LatencyPercentile>?
    /// ``HedgingPolicy/delay`` brought into `0...DeadlineClock.longestWait`.
    let delay: Duration
    /// What retries draw on: the retry policy's budget, or the hedging policy's.
    let retryBudget: RetryBudget?
    /// The policy's values, as given. Last: the derived values above are what a call reads.
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
        breakerWords = values.breaker?.hotWords
        breakerReadsRealTime = values.breaker?.readsRealTime ?? false
        breakerSlowCallNanoseconds = values.breaker?.slowCallNanoseconds ?? 0
        breakerClock = values.breaker.map { .passUnretained($0.clock) }
        latencyWords = values.adaptiveDelay?.hotWords
        isInRange =
            copies == values.copies && (values.adaptiveDelay != nil || delay == values.delay)
            && values.retry?.isInRange ?? true
    }

    /// Whether `clock` keeps the same time as the breaker's (`CircuitBreaker.keepsTime(with:)`),
    /// answered from this plan: `false` without a breaker.
    @inline(__always)
    func keepsBreakerTime(with clock: DeadlineClock) -> Bool {
        guard let breakerClock else { return false }
        return breakerClock.toOpaque() == Unmanaged.passUnretained(clock).toOpaque()
            || (breakerReadsRealTime && !clock.isManual)
    }
}
