import CPetal

/// Numbers promise creation sites, so that a failed future can name the promise its failure came
/// from in the 31 bits its header has to spare (see ``FutureStorage/failureWord``).
///
/// Why it exists: a future does not record where it was created (the header must not grow),
/// but a promise does, and an unobserved failure is worth reporting with that site. So the
/// promise writes its site's number into its future's header when it fails it (only then: a
/// fulfilment never pays), and the deinit of a failed future nobody observed looks the number up
/// here. Numbering is lock-free once a site has its number, as the tallies are: buckets head
/// lists of records that only grow, each published by one compare-and-swap and never freed. The
/// first failure at a site takes a mutex to draw the next number (once per site per process).
///
/// At most ``capacity`` sites get a number; later ones get none, and their failures are counted
/// by value and error type like those of futures no promise made. The numbering is process-wide
/// and never freed.
final class FailureSiteNumbers: @unchecked Sendable {
    // @unchecked: the bucket heads and the table's entries are only touched through C atomics;
    // a record is written before the compare-and-swap that publishes it (FULL, see
    // petal_atomics.h) and never again; `next` is only touched with its lock held.

    /// The table every promise uses.
    static let shared = FailureSiteNumbers()

    /// One numbered site.
    private struct Record {
        let site: PromiseTallySite
        let number: UInt32
        /// The record published before this one in the same bucket.
        let next: UnsafeMutablePointer<Record>?
    }

    /// Sites that can be numbered: chunks of 256 records, 256 chunks, number 0 meaning none.
    static var capacity: Int { chunkSize * chunkCount - 1 }
    private static var chunkSize: Int { 256 }
    private static var chunkCount: Int { 256 }
    private static var bucketBits: Int { 6 }

    /// Each bucket's newest record, as an address (0 for none).
    private let buckets: UnsafeMutablePointer<petal_atomic_word>
    /// Each chunk's address (0 until its first number is drawn); a chunk holds record addresses.
    private let chunks: UnsafeMutablePointer<petal_atomic_word>
    /// The next number to draw; serialises the drawing.
    private let next = PosixLock<UInt32>(1)

    private init() {
        buckets = .allocate(capacity: 1 << Self.bucketBits)
        buckets.initialize(repeating: petal_atomic_word(value: 0), count: 1 << Self.bucketBits)
        chunks = .allocate(capacity: Self.chunkCount)
        chunks.initialize(repeating: petal_atomic_word(value: 0), count: Self.chunkCount)
    }

    /// The number of `site`, drawn now if it has none yet; 0 if the table is full.
    func number(of site: PromiseTallySite) -> UInt32 {
        let head = buckets + Self.bucket(of: site)
        if let record = find(site, from: petal_atomic_word_load(head)) { return record.pointee.number }
        return next.withLock { next -> UInt32 in
            // Another thread may have numbered the site since; numbers are drawn under this lock
            // only, so this second look is final.
            var newest = petal_atomic_word_load(head)
            if let record = find(site, from: newest) { return record.pointee.number }
            guard Int(next) <= Self.capacity else { return 0 }
            let number = next
            next += 1
            let record = UnsafeMutablePointer<Record>.allocate(capacity: 1)
            record.initialize(to: Record(site: site, number: number, next: Self.record(at: newest)))
            // The entry first, so a number read from any header finds its record.
            store(record, at: number)
            // FULL: publishes the record to every lock-free reader of the bucket. Only drawers
            // push records, and they hold the lock: the head cannot have moved since the load.
            let published = petal_atomic_word_exchange(head, &newest, Self.word(record))
            assert(published != 0)
            return number
        }
    }

    /// The site numbered `number`, or `nil` for 0 (and numbers never drawn).
    func site(numbered number: UInt32) -> PromiseTallySite? {
        guard number != 0, Int(number) <= Self.capacity else { return nil }
        // ACQUIRE both: the chunk and the record were written before their FULL publication.
        let chunk = petal_atomic_word_load(chunks + Int(number) / Self.chunkSize)
        guard let entries = UnsafeMutablePointer<petal_atomic_word>(bitPattern: UInt(chunk)) else { return nil }
        return Self.record(at: petal_atomic_word_load(entries + Int(number) % Self.chunkSize))?.pointee.site
    }

    /// Records `record` as the entry of `number`, allocating its chunk if it is the first.
    /// Called with the lock held.
    private func store(_ record: UnsafeMutablePointer<Record>, at number: UInt32) {
        let slot = chunks + Int(number) / Self.chunkSize
        var chunk = petal_atomic_word_load(slot)
        if chunk == 0 {
            let entries = UnsafeMutablePointer<petal_atomic_word>.allocate(capacity: Self.chunkSize)
            entries.initialize(repeating: petal_atomic_word(value: 0), count: Self.chunkSize)
            // FULL: publishes the zeroed chunk; only drawers store, under the lock.
            while petal_atomic_word_exchange(slot, &chunk, petal_word(UInt(bitPattern: entries))) == 0 {}
            chunk = petal_word(UInt(bitPattern: entries))
        }
        let entries = UnsafeMutablePointer<petal_atomic_word>(bitPattern: UInt(chunk)).unsafelyUnwrapped
        let entry = entries + Int(number) % Self.chunkSize
        var empty = petal_atomic_word_load(entry)
        // FULL: publishes the record to readers that look the number up.
        while petal_atomic_word_exchange(entry, &empty, Self.word(record)) == 0 {}
    }

    private func find(_ site: PromiseTallySite, from newest: petal_word) -> UnsafeMutablePointer<Record>? {
        var next = Self.record(at: newest)
        while let record = next {
            if record.pointee.site.isSameSite(as: site) { return record }
            next = record.pointee.next
        }
        return nil
    }

    /// Fibonacci hashing, as ``RepeatTally`` does.
    private static func bucket(of site: PromiseTallySite) -> Int {
        let golden = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        return Int((site.tallyHash &* golden) >> (UInt.bitWidth - bucketBits))
    }

    private static func word(_ record: UnsafeMutablePointer<Record>) -> petal_word {
        petal_word(UInt(bitPattern: record))
    }

    private static func record(at word: petal_word) -> UnsafeMutablePointer<Record>? {
        UnsafeMutablePointer(bitPattern: UInt(word))
    }
}
