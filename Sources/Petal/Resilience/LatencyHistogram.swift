import CPetal

/// The counts behind a ``LatencyPercentile``: latencies in microseconds, in log-linear buckets
/// (16 to an octave: a value is read back within 6.25% of itself), in two generations that take
/// turns, each a row of words that any number of threads add to without a lock.
///
/// Why two generations: a percentile that follows the latency must forget old latencies. The
/// active generation takes the new samples; the other holds the half-window before; turning
/// empties the older one and makes it active. A percentile is read over both, so it always
/// covers between a half and a whole window.
///
/// Why not a lock or a compare-and-swap protocol: recording is on every hedged call's path, from
/// any thread. A sample is one add to its bucket and one to its generation's count (locked
/// adds, `atomicAdd`), and raises its generation's highest bucket if it is above it (a
/// compare-and-swap loop that only ever raises the word): no word here changes meaning when it
/// moves, so there is no protocol to model. Turning and reading happen under the owner's
/// lock, a few times a second; a sample added to a generation while it is being emptied may be
/// lost, or counted in the half-window after: a percentile of thousands of samples does not see
/// it.
///
/// Bucket `i` holds the values `v` (in microseconds) with `index(v) == i`:
/// ```
///   v < 32         i = v                          (exact)
///   v >= 32        s = msb(v) - 4, i = 16 s + (v >> s)   (16 sub-buckets an octave)
/// ```
final class LatencyHistogram: @unchecked Sendable {
    // @unchecked: every word is touched only through C atomics, at an address of its own; the
    // sizes are immutable.

    /// Buckets in each generation: enough for `largest` microseconds, which takes the last.
    let bucketCount: Int
    /// The largest value counted: larger ones are counted as this.
    let largest: UInt
    /// `bucketCount` words for each generation, then the two generations' sample counts, then
    /// the active generation's number (0 or 1), then each generation's highest bucket counted
    /// in (one more than its index; 0 while the generation is empty).
    private let words: UnsafeMutablePointer<petal_atomic_word>

    private static let subBucketBits = 4
    private static let subBuckets = 1 << subBucketBits

    /// Counts values up to `largest` microseconds (at least 1).
    init(largest: UInt) {
        self.largest = Swift.max(largest, 1)
        bucketCount = Self.index(of: self.largest) + 1
        let total = 2 * bucketCount + 5
        words = .allocate(capacity: total)
        words.initialize(repeating: petal_atomic_word(value: 0), count: total)
    }

    deinit {
        words.deallocate()
    }

    /// The bucket of `value`.
    static func index(of value: UInt) -> Int {
        guard value >= UInt(2 * subBuckets) else { return Int(value) }
        let shift = (UInt.bitWidth - 1 - value.leadingZeroBitCount) - subBucketBits
        return subBuckets * shift + Int(value >> UInt(shift))
    }

    /// The largest value bucket `index` holds.
    static func largestValue(in index: Int) -> UInt {
        guard index >= 2 * subBuckets else { return UInt(index) }
        let shift = index / subBuckets - 1
        let lowest = UInt(index - subBuckets * shift) << UInt(shift)
        return lowest + (1 << UInt(shift)) - 1
    }

    private var activeWord: UnsafeMutablePointer<petal_atomic_word> { words + 2 * bucketCount + 2 }

    private func highest(of generation: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        words + 2 * bucketCount + 3 + generation
    }

    private func count(of generation: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        words + 2 * bucketCount + generation
    }

    /// Counts `microseconds` in the active generation; returns that generation's samples, this
    /// one included.
    @discardableResult
    func record(microseconds: UInt) -> Int {
        // ACQUIRE: the generation a turn made active, after it was emptied.
        let generation = Int(petal_atomic_word_load(activeWord))
        let bucket = Self.index(of: Swift.min(microseconds, largest))
        atomicAdd(1, to: words + generation * bucketCount + bucket)
        // A load, and a write only when a sample lands above every other: the read starts at
        // the highest bucket, not at the top of the row.
        let top = highest(of: generation)
        var seen = petal_atomic_word_load(top)
        while seen <= petal_word(bucket) && petal_atomic_word_exchange(top, &seen, petal_word(bucket + 1)) == 0 {}
        return Int(atomicAdd(1, to: count(of: generation))) + 1
    }

    /// The samples of both generations.
    var samples: Int {
        Int(petal_atomic_word_load(count(of: 0))) + Int(petal_atomic_word_load(count(of: 1)))
    }

    /// Empties the older generation and makes it the active one; with `both`, empties the other
    /// as well (the whole window passed with no turn). The owner's lock held.
    func turn(both: Bool) {
        let active = Int(petal_atomic_word_load(activeWord))
        let next = 1 - active
        clear(next)
        if both { clear(active) }
        // FULL (exchange): the emptied words are visible before a recorder reads `next`.
        store(petal_word(next), in: activeWord)
    }

    /// The smallest value, in microseconds, that at least `fraction` of the samples of both
    /// generations do not exceed (within the bucket's width); `nil` without samples. The owner's
    /// lock held.
    ///
    /// One pass, from the highest bucket counted in down, and only as far as the answer: at the
    /// 95th percentile, through the slowest twentieth of the samples, not the whole row twice (a row is 174 buckets for a ceiling of 15 ms; the two full
    /// passes cost about 3 µs of CPU on a busy server, measured with perf, every 32nd call). The
    /// total is the generations' counts: a sample is counted there just after its bucket, so a
    /// read racing a recording thread sees at most one sample per such thread more in the
    /// buckets than in the total, which moves the answer by less than a bucket's share.
    func value(atFraction fraction: Double) -> UInt? {
        let total = samples
        guard total > 0 else { return nil }
        let wanted = Swift.min(Swift.max(1, Int((fraction * Double(total)).rounded(.up))), total)
        // The samples allowed above the answer's bucket: fewer than `total - wanted + 1`.
        let allowedAbove = total - wanted
        var above = 0
        let top = Swift.max(
            Int(petal_atomic_word_load(highest(of: 0))), Int(petal_atomic_word_load(highest(of: 1))))
        var index = Swift.min(Swift.max(top, 1), bucketCount) - 1
        while index > 0 {
            let here = both(index)
            if above + here > allowedAbove { break }
            above += here
            index -= 1
        }
        return Swift.min(Self.largestValue(in: index), largest)
    }

    /// Bucket `index`'s samples in both generations.
    private func both(_ index: Int) -> Int {
        Int(petal_atomic_word_load(words + index)) + Int(petal_atomic_word_load(words + bucketCount + index))
    }

    private func clear(_ generation: Int) {
        for index in 0..<bucketCount { store(0, in: words + generation * bucketCount + index) }
        store(0, in: count(of: generation))
        store(0, in: highest(of: generation))
    }

    private func store(_ value: petal_word, in word: UnsafeMutablePointer<petal_atomic_word>) {
        var seen = petal_atomic_word_load(word)
        while petal_atomic_word_exchange(word, &seen, value) == 0 {}
    }
}
