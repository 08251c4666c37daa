import CPetal

/// Waiter blocks for the subscribers after the first (the first uses the future's inline slot):
/// a C `petal_block` of three cache lines, up to `PETAL_BLOCK_SLOTS` callbacks (each in a slot
/// of two words beside its commit flag, which also records its case), in one plain heap block.
///
/// Why blocks: a hot future's subscribers share one allocation per seven instead of one each
/// (the allocation and its free were most of the cost of subscribing to, and draining, a hot
/// future). Why not Swift objects: a block is owned by the cell protocol (pushed once, taken
/// once by the deliverer, freed by whoever touches it last, see `petal_cell.h`), so reference
/// counting, a deinit and class metadata would be pure cost.
///
/// A slot's callback is initialised by the subscriber that reserved it and moved out exactly
/// once: by the deliverer that runs it, or by its subscriber when the deliverer skipped it.
@usableFromInline
enum CallbackBlock<Value> {
    /// Bytes of a block: the C header line and its two rows of slots.
    @inlinable
    static var size: Int { Int(PETAL_BLOCK_BYTES) }

    /// A new block of `PETAL_BLOCK_SLOTS` empty slots, ready to hold a subscriber's callback in
    /// its first slot and be pushed.
    @inlinable
    static func allocate() -> UnsafeMutablePointer<petal_block> {
        assert(MemoryLayout<petal_block>.size == 64 && Callback<Value>.slotSize == MemoryLayout<petal_slot_words>.size)
        guard let block = petal_block_allocate(size, PETAL_BLOCK_SLOTS) else { fatalError("Petal: out of memory") }
        return block
    }

    /// Slot `index` (holding a callback only between its fill and its move, see
    /// `Callback+Slot.swift`).
    @inlinable
    static func slot(_ block: UnsafeMutablePointer<petal_block>, _ index: Int) -> UnsafeMutableRawPointer {
        petal_block_slot(block, UInt32(truncatingIfNeeded: index)).unsafelyUnwrapped
    }
}
