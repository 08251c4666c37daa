#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Plain heap blocks for the few things Petal allocates by hand (waiter nodes, deferred work).
///
/// Why not `UnsafeMutablePointer.allocate`: on Linux the Swift runtime assumes `malloc` aligns
/// to 8 bytes only, so every allocation asking for 16 (the default) goes through
/// `posix_memalign`, measured at 141 of the 177 instructions a hot promise spends subscribing a
/// callback. `malloc` aligns to 16 on every platform Petal supports (glibc, musl and Darwin on
/// 64-bit), which is all these blocks need.
@usableFromInline
enum PlainAllocation {
    /// Uninitialised memory for one `T`; freed with ``deallocate(_:)``.
    @inlinable
    static func allocate<T>(_: T.Type) -> UnsafeMutablePointer<T> {
        assert(MemoryLayout<T>.alignment <= 16, "malloc aligns to 16 bytes at most")
        guard let block = malloc(MemoryLayout<T>.stride) else { fatalError("Petal: out of memory") }
        return block.assumingMemoryBound(to: T.self)
    }

    /// Frees a block from ``allocate(_:)`` (its contents already deinitialised or moved out).
    @inlinable
    static func deallocate<T>(_ block: UnsafeMutablePointer<T>) {
        free(block)
    }
}
