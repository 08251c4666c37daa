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
/// Why not a lock or a compare-and-swap protocol: recording is on a hedged call's path (one
/// call in four, see `LatencyPercentile`), from any thread. A sample is one add to its bucket
/// and one to its generation's count (locked adds, `atomicAdd`), and sets its bucket's bit in
/// its generation's map of occupied buckets if it is not set (a load, and a locked or the first
/// time in a generation). No word here is moved by compare-and-swap, and none changes meaning
/// when it moves: there is no protocol to model. Turning and reading happen under the owner's
/// lock, a few times a second, with plain stores; a sample added to a generation while it is
/// being emptied may be lost, or counted in the half-window after: a percentile of thousands
/// of samples does not see it.
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
    /// the active generation's number (0 or 1), then each generation's map of the buckets it
    /// counted in (`mapWords` words, a bit a bucket).
    private let words: UnsafeMutablePointer<petal_atomic_word>
    /// Words in a generation's map of occupied buckets.
    private let mapWords: Int

    private static let subBucketBits = 4
    private static let subBuckets = 1 << subBucketBits

    /// Counts values up to `largest` microseconds (at least 1).
    init(largest: UInt) {
        self.largest = Swift.max(largest, 1)
        bucketCount = Self.index(of: self.largest) + 1
        mapWords = (bucketCount + petal_word.bitWidth - 1) / petal_word.bitWidth
        let total = 2 * bucketCount + 3 + 2 * mapWords
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

    private func map(of generation: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        words + 2 * bucketCount + 3 + generation * mapWords
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
        // A load, and a write only for the first sample of the bucket in this generation: the
        // read starts at the highest bucket counted in, not at the top of the row.
        let word = map(of: generation) + bucket / petal_word.bitWidth
        let bit: petal_word = 1 << petal_word(bucket % petal_word.bitWidth)
        if petal_atomic_word_load(word) & bit == 0 { petal_atomic_word_or(word, bit) }
        return Int(atomicAdd(1, to: count(of: generation))) + 1
    }

    /// The samples of the active generation.
    var activeSamples: Int {
        Int(petal_atomic_word_load(count(of: Int(petal_atomic_word_load(activeWord)))))
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
        // RELEASE: the emptied words are visible to a recorder whose load sees `next`.
        petal_atomic_word_store(activeWord, petal_word(next))
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
        var index = Swift.min(highestCounted(), bucketCount - 1)
        while index > 0 {
            let here = both(index)
            if above + here > allowedAbove { break }
            above += here
            index -= 1
        }
        return Swift.min(Self.largestValue(in: index), largest)
    }

    /// The highest bucket either generation counted in (0 if none did).
    private func highestCounted() -> Int {
        var word = mapWords - 1
        while word >= 0 {
            // ACQUIRE, though only the bits are read.
            let bits = petal_atomic_word_load(map(of: 0) + word) | petal_atomic_word_load(map(of: 1) + word)
            if bits != 0 { return word * petal_word.bitWidth + (petal_word.bitWidth - 1 - bits.leadingZeroBitCount) }
            word -= 1
        }
        return 0
    }

    /// Bucket `index`'s samples in both generations.
    private func both(_ index: Int) -> Int {
        Int(petal_atomic_word_load(words + index)) + Int(petal_atomic_word_load(words + bucketCount + index))
    }

    private func clear(_ generation: Int) {
        for index in 0..<bucketCount { petal_atomic_word_store(words + generation * bucketCount + index, 0) }
        petal_atomic_word_store(count(of: generation), 0)
        for word in 0..<mapWords { petal_atomic_word_store(map(of: generation) + word, 0) }
    }
}
