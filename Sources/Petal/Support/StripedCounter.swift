import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process-wide count that many threads move at once, each mostly in a cache line of its own.
///
/// Why not one ``AtomicCounter``: a count moved on a path every thread takes (a cancellation
/// record made and freed) would bounce one cache line between the cores, on every move. Here a
/// thread adds to one of 16 words, 64 bytes apart, picked by its thread identity, and a reader
/// sums them (a snapshot, read rarely: by a metrics sample). A thread may add on one stripe and
/// take away on another; the sum is right all the same, since each word wraps.
final class StripedCounter: @unchecked Sendable {
    // @unchecked: the words are only touched through C atomics, at addresses that never move.
    private static let stripeCount = 16
    /// One word in each 64-byte line, so that stripes never share a line.
    private static let wordsPerStripe = 64 / MemoryLayout<petal_atomic_word>.stride

    private let words: UnsafeMutablePointer<petal_atomic_word>

    init() {
        let count = Self.stripeCount * Self.wordsPerStripe
        words = .allocate(capacity: count)
        words.initialize(repeating: petal_atomic_word(value: 0), count: count)
    }

    deinit {
        words.deinitialize(count: Self.stripeCount * Self.wordsPerStripe)
        words.deallocate()
    }

    /// Adds `delta` (negative to take away) on this thread's stripe.
    func add(_ delta: Int) {
        // One locked add, not a compare-and-swap loop (FULL: a count needs no ordering, and on
        // x86 every locked instruction costs the same).
        _ = petal_atomic_word_add(words + Self.stripe() * Self.wordsPerStripe, petal_word(delta))
    }

    /// The sum of the stripes now (other threads may be moving it).
    var value: Int {
        var sum = 0
        for stripe in 0..<Self.stripeCount {
            sum &+= Int(truncatingIfNeeded: petal_atomic_word_load(words + stripe * Self.wordsPerStripe))
        }
        return sum
    }

    /// This thread's stripe (see `ThreadStripe`).
    private static func stripe() -> Int {
        ThreadStripe.ofThisThread(bits: 4)
    }
}
