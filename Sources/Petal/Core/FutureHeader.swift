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

/// The non-value state of a future, in the `ManagedBuffer` header (the value is the tail).
///
/// Trivially copyable and independent of `Value`: the inline slot's callback lives in raw
/// storage of its size, reached through a typed pointer (see ``FutureStorage``). So creating a
/// storage writes the header in place, with no value-witness copy, and the generic deinit
/// destroys the header with no metadata look-up; the deinit destroys a callback still in the
/// slot by hand, and only when there is one. The field order is relied upon (see
/// `FutureStorage.checkLayout`), and the header is 48 bytes, a multiple of 8, so that the tail
/// after it can hold the error (see ``FutureStorage``).
@usableFromInline
struct FutureHeader {
    /// The C cell: the word (phase, reservation count, waiter blocks), the inline slot's commit
    /// flag and the outcome kind.
    @usableFromInline
    var cell: petal_cell
    /// The future's ``CancellationRecord``, as a retained pointer, or 0 (almost always): the
    /// one place upstream cancellation keeps anything. Installed once by compare-and-swap by
    /// the first user of cancellation, released by the deinit; touched only through C atomics.
    @usableFromInline
    var cancellation: petal_atomic_word
    /// Storage for the first subscriber's callback, a `Callback<Value>` (of the same size for
    /// every `Value`: each case holds a closure or a reference). Initialised by the subscriber
    /// that reserved the slot before its release commit; moved out by whoever runs it, or by
    /// that subscriber if the deliverer skipped it.
    @usableFromInline
    var slotStorage: (UInt, UInt, UInt8)
    /// Whether a chained future still holds its step (see ``ChainStepStorage``). Written before the
    /// storage is shared and by the one delivering thread; read by the deinit, after the last
    /// release.
    @usableFromInline
    var holdsStep: Bool
    /// Whether this is a chained future (a ``ChainStepStorage``), which a cancellation request
    /// cancels at once. Written at creation, then only read; a byte of its own, as `holdsStep`
    /// is written while requests may read this.
    @usableFromInline
    var isChained: Bool
    /// Aligns ``failure`` (the header stays 48 bytes, so the tail starts 8-aligned whatever the
    /// value).
    @usableFromInline
    var padding: UInt8
    /// What diagnostics know of a failure (see ``FailureWord``): whether someone observed it, and
    /// the number of the promise site it came from. Touched only through relaxed C atomics, and
    /// only on failure paths: written by the claimer before its publish, marked after an acquire
    /// of the word saw the failure, read by the deinit after the last release.
    @usableFromInline
    var failure: petal_atomic_u32

    /// A pending header (with `kind`, a resolved one): a storage created resolved with an error
    /// writes it through ``FutureStorage/error`` before it is shared.
    @inlinable
    init(resolvedAs kind: OutcomeKind? = nil, chained: Bool = false) {
        // petal_cell_init and petal_cell_init_resolved, spelt out as values: the header is built
        // in place.
        if let kind {
            cell = petal_cell(word: PETAL_PHASE_RESOLVED, slot_flag: PETAL_SLOT_SKIPPED, kind: kind.rawValue)
        } else {
            cell = petal_cell(word: PETAL_PHASE_PENDING, slot_flag: PETAL_SLOT_EMPTY, kind: 0)
        }
        cancellation = petal_atomic_word(value: 0)
        slotStorage = (0, 0, 0)
        holdsStep = chained
        isChained = chained
        padding = 0
        failure = petal_atomic_u32(value: 0)
    }
}

/// Where each field of the header is, and the outcome in the tail (see ``FieldLayout``).
extension FutureStorage {
    // Each header field is reached through its own pointer, never as `header.pointee.field`: a
    // Swift access to `pointee` covers the whole header, cell word included, so ThreadSanitizer
    // would rightly see it overlap the C atomics of other threads (see ``FieldLayout``).

    /// The header's address.
    @inlinable
    final var headerAddress: UnsafeMutableRawPointer {
        withUnsafeMutablePointerToHeader { UnsafeMutableRawPointer($0) }
    }

    // The callback's layout does not depend on `Value` (every case holds a closure or a
    // reference), so a fixed instance stands in for it: generic code then needs no metadata.
    @usableFromInline
    typealias CallbackLayout = Callback<Never>

    /// The offsets of the header's fields, in declaration order, and where the tail starts.
    @inlinable
    static var headerLayout: (cancellation: Int, slot: Int, holdsStep: Int, isChained: Int, failure: Int, tail: Int) {
        var layout = FieldLayout()
        _ = layout.place(petal_cell.self)
        let cancellation = layout.place(petal_atomic_word.self)
        let slot = layout.place(CallbackLayout.self)
        let holdsStep = layout.place(Bool.self)
        let isChained = layout.place(Bool.self)
        _ = layout.place(UInt8.self)
        let failure = layout.place(petal_atomic_u32.self)
        return (cancellation, slot, holdsStep, isChained, failure, layout.end)
    }

    /// Where the tail starts, from the header's address: the value or the error.
    @inlinable
    static var tailOffset: Int {
        headerLayout.tail.roundedUp(to: MemoryLayout<Value>.alignment)
    }

    /// The bytes the outcome needs at the start of the tail: the value or the error.
    @inlinable
    static var outcomeSize: Int {
        Swift.max(MemoryLayout<Value>.size, MemoryLayout<(any Error)?>.size)
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
        headerAddress.assumingMemoryBound(to: petal_cell.self)
    }

    /// The rejection error or the cancellation's indirect error, in the tail where a value
    /// would be: read it only for an outcome that is not `.fulfilled`.
    @inlinable
    final var error: UnsafeMutablePointer<(any Error)?> {
        (headerAddress + Self.tailOffset).assumingMemoryBound(to: (any Error)?.self)
    }

    /// The slot holding the ``CancellationRecord``'s retained pointer, or 0.
    @inlinable
    final var cancellationSlot: UnsafeMutablePointer<petal_atomic_word> {
        (headerAddress + Self.headerLayout.cancellation).assumingMemoryBound(to: petal_atomic_word.self)
    }

    /// The inline slot for the first subscriber's callback (initialised only between its fill
    /// and its move).
    @inlinable
    final var slot: UnsafeMutablePointer<Callback<Value>> {
        (headerAddress + Self.headerLayout.slot).assumingMemoryBound(to: Callback<Value>.self)
    }

    /// Whether a chained future still holds its step.
    @inlinable
    final var holdsStep: UnsafeMutablePointer<Bool> {
        (headerAddress + Self.headerLayout.holdsStep).assumingMemoryBound(to: Bool.self)
    }

    /// Whether this is a chained future (set at creation, then only read).
    @inlinable
    final var isChained: Bool {
        (headerAddress + Self.headerLayout.isChained).load(as: Bool.self)
    }

    /// Debug builds: the computed offsets are the compiler's, and the tail is where the
    /// elements are.
    @inlinable
    static func checkLayout() {
        let layout = headerLayout
        assert(MemoryLayout<FutureHeader>.offset(of: \.cell) == 0)
        assert(MemoryLayout<FutureHeader>.offset(of: \.cancellation) == layout.cancellation)
        assert(MemoryLayout<FutureHeader>.offset(of: \.slotStorage) == layout.slot)
        assert(MemoryLayout<FutureHeader>.offset(of: \.holdsStep) == layout.holdsStep)
        assert(MemoryLayout<FutureHeader>.offset(of: \.isChained) == layout.isChained)
        assert(MemoryLayout<FutureHeader>.offset(of: \.failure) == layout.failure)
        assert(MemoryLayout<FutureHeader>.size == layout.tail && layout.tail % 8 == 0)
        // The raw storage fits what it stores, and a zeroed error is `nil`.
        assert(MemoryLayout<(any Error)?>.size == MemoryLayout<UInt>.size)
        assert(MemoryLayout<Callback<Value>>.size == MemoryLayout<CallbackLayout>.size)
        assert(MemoryLayout<Callback<Value>>.size <= MemoryLayout<(UInt, UInt, UInt8)>.size)
        assert(MemoryLayout<Callback<Value>>.alignment <= MemoryLayout<(UInt, UInt, UInt8)>.alignment)
    }
}
