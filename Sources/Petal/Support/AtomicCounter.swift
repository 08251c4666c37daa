import CPetal

/// Adds `delta` to `word` and returns the value it held before.
///
/// One locked add on the C side words (`petal_atomic_word_add`, see `petal_atomics.h`), which
/// ThreadSanitizer understands; its FULL ordering is more than a counter needs, and costs
/// nothing extra on x86, where every locked instruction is a full barrier.
@discardableResult
func atomicAdd(_ delta: UInt, to word: UnsafeMutablePointer<petal_atomic_word>) -> UInt {
    UInt(petal_atomic_word_add(word, petal_word(delta)))
}

/// A process-wide counter that threads bump without a lock.
final class AtomicCounter: @unchecked Sendable {
    // @unchecked: `word` is only touched through C atomics, at an address of its own.
    private let word: UnsafeMutablePointer<petal_atomic_word>

    init() {
        word = .allocate(capacity: 1)
        word.initialize(to: petal_atomic_word(value: 0))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
    }

    /// Adds one.
    func increment() { atomicAdd(1, to: word) }

    /// The count now (other threads may be adding to it).
    var value: Int { Int(petal_atomic_word_load(word)) }
}
