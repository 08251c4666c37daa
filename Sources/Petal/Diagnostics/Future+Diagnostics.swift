import CPetal

extension Future {
    /// The bytes the allocator reserved for this future's storage, for size regression tests.
    package var allocatedByteCount: Int {
        petal_allocation_size(Unmanaged.passUnretained(storage).toOpaque())
    }
}
