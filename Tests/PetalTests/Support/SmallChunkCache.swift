import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fills this thread's malloc cache with free chunks of exactly each small size class up to
/// `bound` usable bytes, so that the next requests of at most `bound` bytes on this thread are
/// each served from a chunk of their own class.
///
/// The size tests read the usable size of an allocation, and glibc serves a request from a free
/// chunk 16 bytes larger when splitting it would leave a remainder below its 32-byte minimum:
/// whether it does depends on what earlier tests left free, so a storage that asks for 80 bytes
/// may come back with 88 or 104 usable. glibc's per-thread cache holds seven chunks of each
/// class and is searched first, by exact class; a chunk taken to fill it is kept only if it is
/// of its class exactly (an unsplit larger one is set aside and freed with the rest, into its
/// own class). Call it on the thread that then allocates, with nothing in between that waits.
func fillSmallChunkCache(through bound: Int) {
    let perClass = 7
    // Sizes 24, 40, 56, ...: the usable bytes of the 32, 48, 64, ... byte chunks.
    var kept: [UnsafeMutableRawPointer] = []
    var setAside: [UnsafeMutableRawPointer] = []
    kept.reserveCapacity(perClass * (bound / 16 + 1))
    setAside.reserveCapacity(64)
    for size in stride(from: 24, through: bound, by: 16) {
        var exact = 0
        // Each larger chunk taken leaves one fewer to take, so this ends; the cap keeps a
        // corrupted heap from spinning here.
        for _ in 0..<256 where exact < perClass {
            guard let chunk = malloc(size) else { break }
            if petal_allocation_size(chunk) == size {
                kept.append(chunk)
                exact += 1
            } else {
                setAside.append(chunk)
            }
        }
    }
    for chunk in setAside { free(chunk) }
    for chunk in kept { free(chunk) }
}
