import CPetal

/// The sliding window of a ``CircuitBreaker``: its calls' outcomes counted in buckets, each
/// bucket one word moved by compare-and-swap, with no lock.
///
/// Why buckets of one word each: the closed path records every call, from any number of
/// threads at once; a bucket that holds its period and its three counts in one word is moved
/// by one compare-and-swap, and a thread that finds it holding an older period starts it afresh
/// in that same move, so no count of an old period leaks into a new one.
///
/// ```
///   bits  0-15  period    the bucket's period number, wrapping (a time slice, or a run of calls)
///   bits 16-31  calls     calls recorded (saturating at 65,535: the rest of the period is not counted)
///   bits 32-47  failures
///   bits 48-63  slow calls
/// ```
///
/// A period is a slice of time (a time window: the nanoseconds since the breaker was made over
/// the bucket's span) or a run of calls (a count window: the calls recorded so far over the
/// bucket's size). The window is the last `buckets` periods, from ``start`` on: closing the
/// breaker moves ``start`` to the current period and empties its bucket, so a closed breaker
/// starts from nothing.
///
/// The buckets' moves (`record`, `restart`) and the start's are checked by
/// `Tests/Model/petal_breaker_window.pml`: a bucket's count is exactly its own period's calls
/// counted and not emptied, a call is dropped only when a newer period holds its bucket, and the
/// start never moves back.
final class BreakerWindow: @unchecked Sendable {
    // @unchecked: every word is touched only through C atomics, at an address of its own.
    private let buckets: UnsafeMutablePointer<petal_atomic_word>
    private let count: Int
    /// Calls per period (count window), or 0 (time window).
    private let callsPerBucket: Int
    /// Nanoseconds per period (time window).
    private let nanosecondsPerBucket: Int64
    /// Calls recorded so far (count window): their period is this over ``callsPerBucket``.
    private let sequence: UnsafeMutablePointer<petal_atomic_word>
    /// The first period of the window: periods before it are not counted.
    private let start: UnsafeMutablePointer<petal_atomic_word>

    private static let field: petal_word = (1 << 16) - 1

    init(_ window: CircuitBreakerPolicy.Window) {
        switch window {
        case .calls(let calls):
            count = Swift.min(calls, CircuitBreakerPolicy.largestBuckets)
            callsPerBucket = (calls + count - 1) / count
            nanosecondsPerBucket = 1
        case .time(let duration, let buckets):
            count = buckets
            callsPerBucket = 0
            let (seconds, attoseconds) = duration.components
            nanosecondsPerBucket = Swift.max(
                1, (seconds * 1_000_000_000 + attoseconds / 1_000_000_000) / Int64(buckets))
        }
        buckets = .allocate(capacity: count)
        buckets.initialize(repeating: petal_atomic_word(value: 0), count: count)
        sequence = .allocate(capacity: 2)
        sequence.initialize(repeating: petal_atomic_word(value: 0), count: 2)
        start = sequence + 1
    }

    deinit {
        buckets.deallocate()
        sequence.deallocate()
    }

    /// The totals of a window: calls, and among them failures and slow calls.
    struct Totals: Equatable {
        var calls = 0
        var failures = 0
        var slow = 0
    }

    /// The period of a call recorded now, `elapsed` nanoseconds after the breaker was made.
    func period(elapsed: Int64) -> Int {
        // Never before the breaker was made: a negative period would index before the buckets.
        guard callsPerBucket > 0 else { return Int(Swift.max(elapsed, 0) / nanosecondsPerBucket) }
        // FULL (atomicAdd): a number of its own for every call, whatever the threads.
        return Int(atomicAdd(1, to: sequence)) / callsPerBucket
    }

    /// Counts a call in `period`.
    func record(period: Int, failed: Bool, slow: Bool) {
        let bucket = buckets + period % count
        let tag = petal_word(truncatingIfNeeded: period) & Self.field
        let one: petal_word = 1 << 16 | (failed ? 1 << 32 : 0) | (slow ? 1 << 48 : 0)
        // ACQUIRE; then FULL exchanges, so that a bucket started afresh by another thread is
        // seen whole (period and counts together: they are one word).
        var seen = petal_atomic_word_load(bucket)
        while true {
            let next: petal_word
            let seenTag = seen & Self.field
            if seenTag == tag {
                guard (seen >> 16) & Self.field < Self.field else { return }  // saturated
                next = seen + one
            } else if Int16(truncatingIfNeeded: tag &- seenTag) > 0 {
                next = tag | one  // the bucket held an older period: it starts afresh
            } else {
                return  // a newer period took the bucket: this call is out of the window
            }
            if petal_atomic_word_exchange(bucket, &seen, next) != 0 { return }
        }
    }

    /// The totals of the last `count` periods up to `period`, from ``start`` on.
    func totals(upTo period: Int) -> Totals {
        var totals = Totals()
        let first = Swift.max(period - count + 1, Int(petal_atomic_word_load(start)))
        guard first <= period else { return totals }
        for past in first...period {
            // ACQUIRE: a bucket's word is its period and counts at once.
            let seen = petal_atomic_word_load(buckets + past % count)
            guard seen & Self.field == petal_word(truncatingIfNeeded: past) & Self.field else { continue }
            totals.calls += Int((seen >> 16) & Self.field)
            totals.failures += Int((seen >> 32) & Self.field)
            totals.slow += Int(seen >> 48)
        }
        return totals
    }

    /// Forgets every call recorded so far: the window starts at the current period, whose
    /// bucket is emptied, so that the calls recorded from now on count at once (a window that
    /// started at the next period would not see a failing backend until then: up to a whole
    /// bucket of a time window).
    func restart(elapsed: Int64) {
        let period =
            callsPerBucket > 0
            ? Int(petal_atomic_word_load(sequence)) / callsPerBucket
            : Int(Swift.max(elapsed, 0) / nanosecondsPerBucket)
        let bucket = buckets + period % count
        let tag = petal_word(truncatingIfNeeded: period) & Self.field
        // FULL exchanges, both ordered before the compare-and-swap that closes the breaker, so
        // that a call admitted in the new closed state counts in the emptied bucket from the new
        // start. A bucket a newer period took already is left as it is.
        var seen = petal_atomic_word_load(bucket)
        while Int16(truncatingIfNeeded: tag &- (seen & Self.field)) >= 0
            && petal_atomic_word_exchange(bucket, &seen, tag) == 0
        {}
        var first = petal_atomic_word_load(start)
        while first < period && petal_atomic_word_exchange(start, &first, petal_word(period)) == 0 {}
    }
}
