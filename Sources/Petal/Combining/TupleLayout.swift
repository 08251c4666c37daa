/// Where the elements of a tuple of a parameter pack sit in memory, so that each input of a
/// tuple-valued combinator can write its own element in place.
///
/// Why it exists: Swift has no expression for "element `i` of a pack tuple" with `i` known only at
/// run time, and writing the whole tuple from each input's thread would race. A tuple is laid out
/// like a struct: its elements in order, each at the next offset suited to its alignment. This
/// type computes those offsets with ``FieldLayout``, and debug builds check the total against
/// the compiler's size of the tuple.
@usableFromInline
struct TupleLayout<Tuple> {
    /// The number of elements.
    @usableFromInline
    let count: Int

    /// The layout of `Tuple`, whose elements must be of `types`, in order.
    @inlinable
    init<each Element>(_ types: repeat (each Element).Type) {
        var count = 0
        var layout = FieldLayout()
        for type in repeat each types {
            _ = layout.place(type)
            count += 1
        }
        assert(layout.end == MemoryLayout<Tuple>.size, "Petal: the tuple's elements are not laid out in order")
        self.count = count
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
