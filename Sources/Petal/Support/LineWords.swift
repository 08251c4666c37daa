import CPetal

/// Atomic words allocated on cache lines of their own, for words that threads on other cores
/// write (or read beside words that others write) on every call.
///
/// Why: a word from `UnsafeMutablePointer.allocate(capacity: 1)` sits in a 32-byte block of
/// the allocator, next to whatever else was allocated there. A word read on every call that
/// shares a line with one another core writes on every call misses in the cache as if it were
/// written itself (false sharing), and two words that different cores write bounce their line
/// between them. Here a block starts on a 128-byte boundary and takes whole 128-byte blocks:
/// two cache lines, since x86's adjacent-line prefetcher fetches lines in such pairs.
enum LineWords {
    /// A block: two cache lines.
    private static let blockBytes = 128
    private static let perBlock = blockBytes / MemoryLayout<petal_atomic_word>.stride
    /// The words in a block: a region of this many words from a block's start has its lines
    /// to itself.
    static var wordsPerBlock: Int { perBlock }

    /// `count` words (rounded up to whole blocks, all of them zero), starting a block.
    static func allocate(_ count: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        let total = (Swift.max(count, 1) + perBlock - 1) / perBlock * perBlock
        let words = UnsafeMutableRawPointer.allocate(
            byteCount: total * MemoryLayout<petal_atomic_word>.stride, alignment: blockBytes
        ).bindMemory(to: petal_atomic_word.self, capacity: total)
        words.initialize(repeating: petal_atomic_word(value: 0), count: total)
        return words
    }

    /// Frees words from ``allocate(_:)``.
    static func deallocate(_ words: UnsafeMutablePointer<petal_atomic_word>) {
        UnsafeMutableRawPointer(words).deallocate()
    }
}
