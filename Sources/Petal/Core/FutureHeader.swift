import CPetal

/// The kinds a resolved cell carries beside its word (`petal_cell_kind`).
@usableFromInline
enum OutcomeKind: UInt32 {
    case fulfilled = 0
    case rejected = 1
    case cancelled = 2

    /// The kind of a cell whose word was seen (with an acquire load) to carry an outcome.
    @inlinable
    init(publishedIn cell: UnsafeMutablePointer<petal_cell>) {
        self = OutcomeKind(rawValue: petal_cell_kind(cell)).unsafelyUnwrapped
    }
}

/// The non-value state of a future, in the `ManagedBuffer` header (the value is the tail): the C
/// struct `petal_future_header` (`petal_future_header.h`), whose size and field offsets are
/// checked by `_Static_assert`s when this module compiles.
///
/// Trivially copyable and independent of `Value`: the inline slot's callback lives in raw
/// storage of its size, reached through a typed pointer (see ``FutureStorage``). So creating a
/// storage writes the header in place, with no value-witness copy, and the generic deinit
/// destroys the header with no metadata look-up; the deinit destroys a callback still in the
/// slot by hand, and only when there is one.
@usableFromInline
typealias FutureHeader = petal_future_header

extension FutureHeader {
    /// A pending header, or with `kind` a resolved one: a storage created resolved with an error
    /// writes it through ``FutureStorage/error`` before it is shared.
    ///
    /// Every field is written here, as a value: C's zero initialiser (`FutureHeader()`, which
    /// this must never be confused with) is built once on the stack and copied into every new
    /// future, which callgrind counted as two instructions more per future; this one folds into
    /// three zeroing stores into the allocation.
    ///
    /// With `mayPassRequests` (a chained future whose step returns a future), the cancellation
    /// slot starts as `PETAL_CANCELLATION_MAY_PASS`: dependents link to the future before the
    /// step has run, so that a request on them can reach the work the step starts.
    @inlinable
    init(resolvedAs kind: OutcomeKind?, chained: Bool = false, mayPassRequests: Bool = false) {
        // petal_cell_init (every field zero: PENDING, the slot EMPTY) or petal_cell_init_resolved.
        self.init(
            cell: petal_cell(
                word: kind == nil ? 0 : PETAL_PHASE_RESOLVED, slot_flag: kind == nil ? 0 : PETAL_SLOT_SKIPPED,
                kind: kind.map { $0.rawValue | PETAL_KIND_WRITTEN } ?? 0),
            cancellation: petal_atomic_word(value: mayPassRequests ? petal_word(PETAL_CANCELLATION_MAY_PASS) : 0),
            slot: (0, 0), holds_step: chained, is_chained: chained,
            may_pass: petal_atomic_u8(value: mayPassRequests ? 1 : 0), padding: 0, failure: petal_atomic_u32(value: 0))
    }
}

/// Each field of the header, by name, and the outcome in the tail.
extension FutureStorage {
    // Each header field is reached through its C accessor, never as `header.pointee.field`: a
    // Swift access to `pointee` covers the whole header, cell word included, so ThreadSanitizer
    // would rightly see it overlap the C atomics of other threads.

    /// The header's address.
    @inlinable
    final var headerPointer: UnsafeMutablePointer<FutureHeader> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The header's address, as raw memory.
    @inlinable
    final var headerAddress: UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(headerPointer)
    }

    /// Where the tail starts, from the header's address: the value or the error.
    @inlinable
    static var tailOffset: Int {
        MemoryLayout<FutureHeader>.size.roundedUp(to: MemoryLayout<Value>.alignment)
    }

    /// The bytes the outcome needs at the start of the tail: the value or the error.
    @inlinable
    static var outcomeSize: Int {
        Swift.max(MemoryLayout<Value>.size, MemoryLayout<(any Error)?>.size)
    }

    /// Where a subclass keeps a `T` of its own in the tail, after the outcome: its offset from
    /// the header's address (a chained future's step).
    @inlinable
    static func offsetAfterOutcome<T>(of type: T.Type) -> Int {
        (tailOffset + outcomeSize).roundedUp(to: MemoryLayout<T>.alignment)
    }

    /// Tail elements that hold the outcome and a `T` after it (see ``offsetAfterOutcome(of:)``).
    @inlinable
    static func tailCapacity<T>(withRoomFor type: T.Type) -> Int {
        let bytes = offsetAfterOutcome(of: T.self) + MemoryLayout<T>.size - tailOffset
        let stride = MemoryLayout<Value>.stride
        return (bytes + stride - 1) / stride
    }

    /// Tail elements that hold the outcome.
    @inlinable
    static var outcomeCapacity: Int {
        let stride = MemoryLayout<Value>.stride
        return (outcomeSize + stride - 1) / stride
    }

    /// The C cell, first in the header.
    @inlinable
    final var cell: UnsafeMutablePointer<petal_cell> {
        petal_future_header_cell(headerPointer)
    }

    /// The rejection error or the cancellation's indirect error, in the tail where a value
    /// would be: read it only for an outcome that is not `.fulfilled`.
    @inlinable
    final var error: UnsafeMutablePointer<(any Error)?> {
        (headerAddress + Self.tailOffset).assumingMemoryBound(to: (any Error)?.self)
    }

    /// The slot holding the attachment's retained pointer (Cancellation's record), or 0: see
    /// `petal_swift_hooks.h`.
    @inlinable
    final var cancellationSlot: UnsafeMutablePointer<petal_atomic_word> {
        petal_future_header_cancellation(headerPointer)
    }

    /// The inline slot for the first subscriber's callback (holding one only between its fill
    /// and its move, see `Callback+Slot.swift`).
    @inlinable
    final var slot: UnsafeMutableRawPointer {
        petal_future_header_slot(headerPointer)
    }

    /// Whether a chained future still holds its step.
    @inlinable
    final var holdsStep: UnsafeMutablePointer<Bool> {
        petal_future_header_holds_step(headerPointer)
    }

    /// Whether a future created able to pass requests on still may (see `may_pass` in
    /// `petal_future_header.h`).
    @inlinable
    final var mayPassFlag: UnsafeMutablePointer<petal_atomic_u8> {
        petal_future_header_may_pass(headerPointer)
    }

    /// Whether this is a chained future (set at creation, then only read).
    @inlinable
    final var isChained: Bool {
        petal_future_header_is_chained(headerPointer).pointee
    }

    /// Debug builds: what the header's raw storage holds fits it (its size and offsets are
    /// checked when the module compiles; a Swift type's layout can only be checked here; each
    /// callback's payload is checked as it is stored).
    @inlinable
    static func checkLayout() {
        // A zeroed error is `nil`, and the slot is the two words callbacks are kept in.
        assert(MemoryLayout<(any Error)?>.size == MemoryLayout<UInt>.size)
        assert(Callback<Value>.slotSize == 2 * MemoryLayout<UInt>.size)
    }
}
