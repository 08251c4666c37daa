/// Where consecutive fields sit when laid out the way Swift lays out a struct: each at the next
/// offset aligned for it.
///
/// Why it exists: Petal's headers (a future's, a combinator's) and the tails after them are
/// reached field by field through raw pointers, never as one `pointee` (ThreadSanitizer would
/// see a whole-header access overlap other threads' atomics). Their offsets are computed here,
/// in code the optimiser folds to constants, rather than with `MemoryLayout.offset(of:)`, whose
/// key path is a heap allocation wherever generic code runs unspecialised. Each header's
/// `checkLayout()` holds these offsets to the compiler's in debug builds.
@usableFromInline
struct FieldLayout {
    /// The first byte after the fields placed so far.
    @usableFromInline
    var end: Int

    /// An empty layout starting at `start`.
    @inlinable
    init(startingAt start: Int = 0) {
        end = start
    }

    /// Places a field of type `T` after the previous ones; returns its offset.
    @inlinable
    mutating func place<T>(_: T.Type) -> Int {
        place(size: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
    }

    /// Places a field of `size` bytes aligned to `alignment` (a power of two); returns its offset.
    @inlinable
    mutating func place(size: Int, alignment: Int) -> Int {
        let offset = end.roundedUp(to: alignment)
        end = offset + size
        return offset
    }
}

extension Int {
    /// The smallest multiple of `alignment` (a power of two) not below `self`.
    @inlinable
    func roundedUp(to alignment: Int) -> Int {
        (self + alignment - 1) & ~(alignment - 1)
    }
}
