import CPetal

/// The sliding window of a ``CircuitBreaker``: its calls' outcomes counted in buckets, each
/// bucket one word moved by compare-and-swap, with no lock, and each period's bucket striped.
///
/// Why buckets of one word each: the closed path records every call, from any number of
/// threads at once; a bucket that holds its period and its three counts in one word is moved
/// by one compare-and-swap, and a thread that finds it holding an older period starts it afresh
/// in that same move, so no count of an old period leaks into a new one.
///
/// Why stripes: in a period every call counts in the same bucket, and one word written by every
/// call on two cores moves its cache line between them on most calls (a miss of about a
/// hundred cycles, which callgrind does not see). So each period has a bucket in each of
/// ``stripeCount`` rings, a thread counts in the ring of its stripe (`ThreadStripe`), each ring
/// in cache lines of its own, and the totals sum the rings: a call writes one line that the
/// other cores rarely touch, and the rarer failed or slow call reads a few more. Measured: two
/// threads running calls through one closed breaker took 380 ns a call each with one ring, 165
/// with the stripes (one thread alone: 120); a call costs 18 instructions more (callgrind).
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
/// A busy time window samples its successes (see ``successMask``): a success counted stands
/// for as many calls as the mask lets through one of, and moves its bucket by that many.
///
/// The buckets' moves (`record`, `restart`) and the start's are checked by
/// `Tests/Model/petal_breaker_window.pml`: a bucket's count is exactly its own period's calls
/// counted and not emptied, a call is dropped only when a newer period holds its bucket, and the
/// start never moves back.
final class BreakerWindow: @unchecked Sendable {
    // @unchecked: every word is touched only through C atomics, at an address of its own.
    /// The ring of buckets: period `p`'s is `p & ringMask`. A power of two at least `count`, so
    /// that finding a call's bucket is a mask, not a division (see `PeriodDivisor`).
    private let buckets: UnsafeMutablePointer<petal_atomic_word>
    private let ringMask: Int
    /// Words from one stripe's ring to the next: the ring, at least two whole cache lines (see
    /// `LineWords`), so that no two stripes share a line.
    private let stripeStride: Int
    /// The periods in the window.
    private let count: Int
    /// Calls per period (count window), or 0 (time window).
    private let callsPerBucket: Int
    /// The period of a call: its number (count window) or its nanoseconds (time window) over
    /// the period's length.
    private let divisor: PeriodDivisor
    /// Calls recorded so far (count window): their period is this over ``callsPerBucket``.
    private let sequence: UnsafeMutablePointer<petal_atomic_word>
    /// The first period of the window: periods before it are not counted.
    private let start: UnsafeMutablePointer<petal_atomic_word>
    /// ``successMask``'s word: stored, never compared, by the threads that start a period. The
    /// breaker's, beside its state word, where a call that is not counted reads it with the
    /// line it loaded as it began; or one of this window's own.
    private let maskWord: UnsafeMutablePointer<petal_atomic_word>
    /// Whether successes may be sampled: a time window whose breaker reads real time, whose
    /// low bits say nothing of a call's outcome (a manual clock's do not move by themselves).
    private let samples: Bool

    private static let field: petal_word = (1 << 16) - 1
    /// The rings' count is `1 << stripeBits`: 8, enough that the threads of a server's few
    /// cores mostly count apart, and few enough that a failed call's totals read little.
    private static let stripeBits = 3
    static var stripeCount: Int { 1 << stripeBits }

    /// The samples a window should hold before successes are sampled: the rates read within a
    /// few percent (the failures and slow calls, counted every one, are exact).
    static let samplesPerWindow = 1_024
    /// The smallest share of successes counted: one in this many.
    static let largestShare = 64

    /// A window of `window`'s periods; `sampling`: whether a time window may count its
    /// successes by sampling (see ``successMask``), into `maskWord` if given (its owner
    /// initialises and frees it).
    init(
        _ window: CircuitBreakerPolicy.Window, sampling: Bool = false,
        maskWord: UnsafeMutablePointer<petal_atomic_word>? = nil
    ) {
        switch window {
        case .calls(let calls):
            count = Swift.min(calls, CircuitBreakerPolicy.largestBuckets)
            callsPerBucket = (calls + count - 1) / count
            divisor = PeriodDivisor(callsPerBucket)
        case .time(let duration, let buckets):
            count = buckets
            callsPerBucket = 0
            let (seconds, attoseconds) = duration.components
            divisor = PeriodDivisor(
                Swift.max(1, Int((seconds * 1_000_000_000 + attoseconds / 1_000_000_000) / Int64(buckets))))
        }
        let ring = 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount)
        ringMask = ring - 1
        stripeStride = Swift.max(ring, LineWords.wordsPerBlock)
        buckets = LineWords.allocate(Self.stripeCount * stripeStride)
        sequence = .allocate(capacity: 3)
        sequence.initialize(repeating: petal_atomic_word(value: 0), count: 3)
        start = sequence + 1
        self.maskWord = maskWord ?? sequence + 2
        samples = sampling && callsPerBucket == 0
    }

    deinit {
        LineWords.deallocate(buckets)
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
        guard callsPerBucket > 0 else { return divisor.period(of: UInt64(Swift.max(elapsed, 0))) }
        // FULL (atomicAdd): a number of its own for every call, whatever the threads.
        return divisor.period(of: UInt64(atomicAdd(1, to: sequence)))
    }

    /// Which successes are counted, neither failed nor slow: one in `mask + 1`, chosen by the
    /// counting thread's draws (see `SampleDraw`), each as `mask + 1` calls. Zero (every success
    /// counted) in a count window, on a manual clock, and in a window that held fewer than
    /// twice ``samplesPerWindow`` calls; else the largest power of two less one, up to
    /// ``largestShare`` less one, that leaves it about ``samplesPerWindow`` of them.
    ///
    /// Why: in calm nearly every call is a success that nothing reads but the rates of the
    /// failed or slow calls to come, and a thousand of them give those rates as well as a
    /// million. A success not counted loads this word and draws from its thread's sequence (a
    /// thread-local word), where one counted loads the state word, finds its period, and moves
    /// a bucket: about 100 instructions and four cache lines (in a server, each likely a miss:
    /// the call's count comes milliseconds after its start, other requests' work between them).
    /// Sound even in a window of few calls: each thread's draws keep one call in `mask + 1`
    /// evenly, so the successes counted stand for those made within a few draws' weight, where
    /// a coin per call (the low bits of its start, before) let a window a burst left with a
    /// hundred calls read 3 failures in 10 as half (see `SampleDraw`).
    var successMask: UInt64 {
        // ACQUIRE, though only the value is read.
        UInt64(petal_atomic_word_load(maskWord))
    }

    /// The calls this thread's next success is counted as under `mask` (see ``successMask``):
    /// `mask + 1`, or 0 if it is not counted. No draw under a mask of 0 (every success counts).
    @inline(__always)
    static func weightOfSuccess(mask: UInt64) -> Int {
        guard mask != 0 else { return 1 }
        return weight(ofDraw: SampleDraw.next(), mask: mask)
    }

    /// The calls a success is counted as under `mask` given `draw`: `mask + 1`, or 0.
    @inline(__always)
    static func weight(ofDraw draw: UInt64, mask: UInt64) -> Int {
        SampleDraw.keeps(draw, mask: mask) ? Int(truncatingIfNeeded: mask) &+ 1 : 0
    }

    /// The mask for a window that counted `calls`: see ``successMask``.
    static func successMask(forCalls calls: Int) -> UInt64 {
        var share = 1
        while share < largestShare && calls >= samplesPerWindow * 2 * share { share *= 2 }
        return UInt64(share - 1)
    }

    /// Counts a call in `period`, in this thread's stripe, as `weight` calls (a sampled
    /// success: see ``successMask``).
    func record(period: Int, failed: Bool, slow: Bool, weight: Int = 1) {
        let ring = buckets + ThreadStripe.ofThisThread(bits: Self.stripeBits) * stripeStride
        let bucket = ring + (period & ringMask)
        let tag = petal_word(truncatingIfNeeded: period) & Self.field
        let calls = petal_word(truncatingIfNeeded: weight)
        let one: petal_word = calls << 16 | (failed ? 1 << 32 : 0) | (slow ? 1 << 48 : 0)
        // ACQUIRE; then FULL exchanges, so that a bucket started afresh by another thread is
        // seen whole (period and counts together: they are one word).
        var seen = petal_atomic_word_load(bucket)
        while true {
            let next: petal_word
            let seenTag = seen & Self.field
            if seenTag == tag {
                guard (seen >> 16) & Self.field <= Self.field - calls else { return }  // saturated
                next = seen + one
            } else if Int16(truncatingIfNeeded: tag &- seenTag) > 0 {
                next = tag | one  // the bucket held an older period: it starts afresh
            } else {
                return  // a newer period took the bucket: this call is out of the window
            }
            if petal_atomic_word_exchange(bucket, &seen, next) != 0 {
                if samples && seenTag != tag { chooseMask(before: period) }
                return
            }
        }
    }

    /// A period has begun (this thread started its bucket in one stripe): the mask for it, from
    /// the window that ended with the period before. At most once a period a stripe: a pass
    /// over the window's buckets, and a store, not a compare-and-swap (threads that choose at
    /// once read the same buckets, and any mask they store counts without bias).
    private func chooseMask(before period: Int) {
        let mask = Self.successMask(forCalls: totals(upTo: period - 1).calls)
        // RELEASE, though only the value is read; a mask that did not move is not written.
        if petal_atomic_word_load(maskWord) != petal_word(mask) { petal_atomic_word_store(maskWord, petal_word(mask)) }
    }

    /// The totals of the last `count` periods up to `period`, from ``start`` on.
    func totals(upTo period: Int) -> Totals {
        var totals = Totals()
        let first = Swift.max(period - count + 1, Int(petal_atomic_word_load(start)))
        guard first <= period else { return totals }
        for past in first...period {
            let tag = petal_word(truncatingIfNeeded: past) & Self.field
            for stripe in 0..<Self.stripeCount {
                // ACQUIRE: a bucket's word is its period and counts at once.
                let seen = petal_atomic_word_load(buckets + stripe * stripeStride + (past & ringMask))
                guard seen & Self.field == tag else { continue }
                totals.calls += Int((seen >> 16) & Self.field)
                totals.failures += Int((seen >> 32) & Self.field)
                totals.slow += Int(seen >> 48)
            }
        }
        return totals
    }

    /// Forgets every call recorded so far: the window starts at the current period, whose
    /// buckets (one a stripe) are emptied, so that the calls recorded from now on count at once (a window that
    /// started at the next period would not see a failing backend until then: up to a whole
    /// bucket of a time window).
    func restart(elapsed: Int64) {
        let period =
            callsPerBucket > 0
            ? divisor.period(of: UInt64(petal_atomic_word_load(sequence)))
            : divisor.period(of: UInt64(Swift.max(elapsed, 0)))
        let tag = petal_word(truncatingIfNeeded: period) & Self.field
        // FULL exchanges, all ordered before the compare-and-swap that closes the breaker, so
        // that a call admitted in the new closed state counts in an emptied bucket from the new
        // start, whichever its stripe. A bucket a newer period took already is left as it is.
        for stripe in 0..<Self.stripeCount {
            let bucket = buckets + stripe * stripeStride + (period & ringMask)
            var seen = petal_atomic_word_load(bucket)
            while Int16(truncatingIfNeeded: tag &- (seen & Self.field)) >= 0
                && petal_atomic_word_exchange(bucket, &seen, tag) == 0
            {}
        }
        var first = petal_atomic_word_load(start)
        while first < period && petal_atomic_word_exchange(start, &first, petal_word(period)) == 0 {}
    }
}

/// Division by a period's length, as a multiplication: the window's every call finds its period
/// this way, and a 64-bit division takes tens of cycles where a multiplication takes a few.
///
/// The reciprocal is rounded up (`ceil(2^64 / length)`), so the quotient is the division's
/// exactly for a value below 2^64 / length (periods of 100 ms: the first three minutes of
/// nanoseconds), and past it at most one more, only for a value within `value × length / 2^64`
/// of the next multiple (periods of 100 ms: 5 ns after a quarter of an hour): a period that
/// starts a few nanoseconds early. The quotient never decreases as `value` grows, so periods
/// stay in order, and every thread computes the same one.
struct PeriodDivisor {
    /// `ceil(2^64 / length)`, or 0 for a length of 1 (the quotient is the value).
    private let reciprocal: UInt64

    init(_ length: Int) {
        let length = UInt64(Swift.max(length, 1))
        reciprocal = length == 1 ? 0 : UInt64.max / length + 1
    }

    /// `value` over the length.
    @inline(__always)
    func period(of value: UInt64) -> Int {
        guard reciprocal != 0 else { return Int(truncatingIfNeeded: value) }
        return Int(truncatingIfNeeded: value.multipliedFullWidth(by: reciprocal).high)
    }
}
