import CPetal

/// What a ``RepeatTally`` counts by: a promise's creation site, or a job's type.
protocol TallySite: Sendable {
    /// Picks the site's bucket: the same site must always give the same hash; the tally mixes
    /// it, so a plain number (a line, an address) will do.
    var tallyHash: UInt { get }
    /// Whether `other` names the same site as `self`.
    func isSameSite(as other: Self) -> Bool
}

/// Counts repeats per site for the life of the process, without a lock.
///
/// Why it exists: every repeat is counted, and learns whether it is the first at its site (the
/// default handlers print only that one), on the losing path of every resolution race, from any
/// number of threads at once. A process-wide lock there would serialise every loser of every
/// race. So a fixed array of buckets each heads a list of site records that only ever grows: a
/// record is published by one compare-and-swap on its bucket's head and is never unlinked,
/// moved or freed, so readers walk the lists with no lock and no ABA hazard. A repeat at a known
/// site costs a hash, a short walk and one atomic add on the site's own count. Sites are
/// places in source code (or job classes), so there are few of them and the lists stay short.
///
/// The tallies are process-wide statics, so nothing here is ever deallocated.
final class RepeatTally<Site: TallySite>: @unchecked Sendable {
    // @unchecked: the bucket heads and each record's count are only touched through C atomics;
    // a record's other fields are written before the compare-and-swap that publishes it (FULL
    // ordering, see petal_atomics.h) and never again.

    /// One site's entry.
    struct Record {
        /// The site as its first repeat described it.
        let site: Site
        /// How many repeats the site has had, in a word of its own.
        let count: UnsafeMutablePointer<petal_atomic_word>
        /// The record published before this one in the same bucket.
        var next: UnsafeMutablePointer<Record>?
    }

    /// A power of two: the bucket is the top bits of the mixed hash.
    private static var bucketCount: Int { 1 << bucketBits }
    private static var bucketBits: Int { 6 }

    /// Each bucket's newest record, as an address (0 for none).
    private let buckets: UnsafeMutablePointer<petal_atomic_word>

    init() {
        buckets = .allocate(capacity: Self.bucketCount)
        buckets.initialize(repeating: petal_atomic_word(value: 0), count: Self.bucketCount)
    }

    /// Counts one repeat at `site`.
    ///
    /// - Returns: The site's count including this repeat: 1 for its first, and each repeat gets
    ///   a different number even when several threads count the same site at once.
    func count(_ site: Site) -> Int {
        let head = buckets + Self.bucket(of: site)
        var newest = petal_atomic_word_load(head)
        if let record = find(site, from: newest, downTo: 0) { return Self.increment(record) }

        // The site's first repeat, as far as this thread knows: publish a record counting it.
        let count = UnsafeMutablePointer<petal_atomic_word>.allocate(capacity: 1)
        count.initialize(to: petal_atomic_word(value: 1))
        let record = UnsafeMutablePointer<Record>.allocate(capacity: 1)
        record.initialize(to: Record(site: site, count: count, next: Self.record(at: newest)))
        while true {
            let searched = newest
            // FULL (see petal_atomics.h): release publishes the record's fields to every thread that
            // loads the head; acquire lets this thread read the records other threads published.
            if petal_atomic_word_exchange(head, &newest, Self.word(record)) != 0 { return 1 }
            // Another thread published first. Only the records between the new head and the
            // one already searched are new; if one is this site, count there instead.
            if let existing = find(site, from: newest, downTo: searched) {
                record.deinitialize(count: 1)
                record.deallocate()
                count.deinitialize(count: 1)
                count.deallocate()
                return Self.increment(existing)
            }
            // Still unpublished, so still this thread's alone to change.
            record.pointee.next = Self.record(at: newest)
        }
    }

    /// Every site counted so far, with its count (a snapshot: other threads may be counting).
    var snapshot: [(site: Site, count: Int)] {
        var result: [(site: Site, count: Int)] = []
        for index in 0..<Self.bucketCount {
            var next = Self.record(at: petal_atomic_word_load(buckets + index))
            while let record = next {
                result.append((record.pointee.site, Int(petal_atomic_word_load(record.pointee.count))))
                next = record.pointee.next
            }
        }
        return result
    }

    /// The record of `site` among those from `newest` down to (not including) `oldest`.
    private func find(
        _ site: Site, from newest: petal_word, downTo oldest: petal_word
    ) -> UnsafeMutablePointer<Record>? {
        var next = Self.record(at: newest)
        while let record = next, Self.word(record) != oldest {
            if record.pointee.site.isSameSite(as: site) { return record }
            next = record.pointee.next
        }
        return nil
    }

    /// Fibonacci hashing: multiplying by 2^64 / φ spreads nearby numbers (consecutive lines,
    /// aligned addresses) over the top bits.
    private static func bucket(of site: Site) -> Int {
        let golden = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return Int((site.tallyHash &* golden) >> (UInt.bitWidth - bucketBits))
    }

    private static func increment(_ record: UnsafeMutablePointer<Record>) -> Int {
        Int(atomicAdd(1, to: record.pointee.count)) + 1
    }

    private static func word(_ record: UnsafeMutablePointer<Record>) -> petal_word {
        petal_word(UInt(bitPattern: record))
    }

    private static func record(at word: petal_word) -> UnsafeMutablePointer<Record>? {
        UnsafeMutablePointer(bitPattern: UInt(word))
    }
}
