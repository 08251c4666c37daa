/// Where the elements of a tuple of a parameter pack sit in memory, so that each input of a
/// tuple-valued combinator can write its own element in place.
///
/// Why it exists: Swift has no expression for "element `i` of a pack tuple" with `i` known only at
/// run time, and writing the whole tuple from each input's thread would race. A tuple is laid out
/// like a struct: its elements in order, each at the next offset suited to its alignment. The
/// elements are placed here in that order, one per input, and the layout's end is checked against
/// the compiler's size of the tuple when it is made (in specialised code the sums fold to
/// constants and the check disappears).
@usableFromInline
struct TupleLayout<Tuple> {
    /// The number of elements.
    @usableFromInline
    let count: Int

    /// The first byte after the elements placed so far.
    @usableFromInline
    var end = 0

    /// The layout of `Tuple`, whose elements must be of `types`, in order, with no element
    /// placed yet.
    @inlinable
    init<each Element>(_ types: repeat (each Element).Type) {
        var whole = TupleLayout(count: 0)
        var count = 0
        for type in repeat each types {
            _ = whole.placeNext(type)
            count += 1
        }
        precondition(whole.end == MemoryLayout<Tuple>.size, "Petal: the tuple's elements are not laid out in order")
        self.init(count: count)
    }

    @inlinable
    init(count: Int) {
        self.count = count
    }

    /// Places the next element, of type `Element`, after the ones placed before; returns its
    /// offset in the tuple.
    @inlinable
    mutating func placeNext<Element>(_: Element.Type) -> Int {
        let offset = end.roundedUp(to: MemoryLayout<Element>.alignment)
        end = offset + MemoryLayout<Element>.size
        return offset
    }

    /// The element of type `Element` at `offset` in `tuple`.
    @inlinable
    static func element<Element>(
        of _: Element.Type, at offset: Int, in tuple: UnsafeMutablePointer<Tuple>
    ) -> UnsafeMutablePointer<Element> {
        // A tuple's memory is bound to each of its element types at their offsets.
        (UnsafeMutableRawPointer(tuple) + offset).assumingMemoryBound(to: Element.self)
    }
}
