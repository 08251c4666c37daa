import CPetal

/// A process-wide handler that reporting threads read with one atomic load, never a lock.
///
/// Why it exists: the diagnostics handler is read on the losing path of every resolution race,
/// from any number of threads (and a subscription reads the callback-context carrier); behind
/// a mutex, every loser of every race queued on that mutex. So the handler sits in an immutable box and one atomic word points at
/// the current box. A setter swaps the word under a mutex (setters are rare and may wait) and
/// keeps every box it ever installed alive for the life of the process, a few dozen bytes per
/// set: a thread that loaded the previous pointer just before the swap may still be calling
/// through it, and never freeing a box is what makes that safe without a reclamation scheme.
///
/// `Handler` is a concrete struct around the closure: a closure stored as a generic value would
/// be wrapped in one more reabstraction thunk by every get and set, nesting without bound.
final class HandlerSlot<Handler: Sendable>: @unchecked Sendable {
    // @unchecked: `current` is only touched through C atomics; the boxes are immutable.

    private final class Box: Sendable {
        let handler: Handler
        init(_ handler: Handler) { self.handler = handler }
    }

    /// The current box's address.
    private let current: UnsafeMutablePointer<petal_atomic_word>
    /// Every box ever installed, in order; serialises the setters.
    private let installed: PosixLock<[Box]>

    init(_ handler: Handler) {
        let box = Box(handler)
        installed = PosixLock([box])
        current = .allocate(capacity: 1)
        current.initialize(to: petal_atomic_word(value: Self.word(box)))
    }

    /// Runs `body` with the current handler.
    func withHandler<Result>(_ body: (Handler) -> Result) -> Result {
        // ACQUIRE (see petal_atomics.h): the box's contents, written before the setter's FULL exchange,
        // are visible. Borrowed, not retained: the box is never freed, and a retain here would
        // make every reporting thread write the box's reference count.
        let address = UnsafeRawPointer(bitPattern: UInt(petal_atomic_word_load(current))).unsafelyUnwrapped
        return Unmanaged<Box>.fromOpaque(address)._withUnsafeGuaranteedRef { body($0.handler) }
    }

    /// Installs `handler` for every later report.
    func replace(with handler: Handler) {
        let box = Box(handler)
        installed.withLock { boxes in
            boxes.append(box)
            // RELEASE: publishes the box's contents to every reader's acquire load. A store: the
            // only writer holds `installed`'s lock.
            petal_atomic_word_store(current, Self.word(box))
        }
    }

    private static func word(_ box: Box) -> petal_word {
        petal_word(UInt(bitPattern: Unmanaged.passUnretained(box).toOpaque()))
    }
}
