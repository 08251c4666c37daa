/// Where the elements of a tuple of a parameter pack sit in memory, so that each input of a
/// tuple-valued combinator can write its own element in place.
///
/// Why it exists: Swift has no expression for "element `i` of a pack tuple" with `i` known only at
/// run time, and writing the whole tuple from each input's thread would race. A tuple is laid out
/// like a struct: its elements in order, each at the next offset suited to its alignment. This
/// type computes those offsets the same way, and debug builds check the total against the
/// compiler's size of the tuple.
@usableFromInline
struct TupleLayout<Tuple> {
    /// The number of elements.
    @usableFromInline
    let count: Int

    /// The layout of `Tuple`, whose elements must be of `types`, in order.
    @inlinable
    init<each Element>(_ types: repeat (each Element).Type) {
        var count = 0
        var end = 0
        for type in repeat each types {
            end = Self.offset(of: type, after: end) + Self.size(of: type)
            count += 1
        }
        assert(end == MemoryLayout<Tuple>.size, "Petal: the tuple's elements are not laid out in order")
        self.count = count
    }

    @inlinable
    static func size<Element>(of _: Element.Type) -> Int {
        MemoryLayout<Element>.size
    }

    /// The offset of an element of type `Element` that follows an element ending at `end`.
    @inlinable
    static func offset<Element>(of _: Element.Type, after end: Int) -> Int {
        end.roundedUp(to: MemoryLayout<Element>.alignment)
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
