import Foundation

#if canImport(Glibc)
    import CMalloc
    import Glibc
#endif

/// The process's memory at one moment: the heap in use, what the allocator holds, and the
/// resident set.
struct MemorySample {
    /// Bytes the allocator has handed out and not had back, or `nil` where the soak cannot tell.
    let heap: Int?
    /// Bytes glibc's arenas hold from the system, in use or free (`nil` under a sanitizer). Freed
    /// memory stays in the arena of the thread that freed it, so this, not the heap, is what the
    /// resident set follows as threads come and go.
    let arenas: Int?
    /// Resident set size, from `/proc/self/statm`; `nil` where there is no such file.
    let resident: Int?

    /// Where ``heap`` comes from, for the report.
    static var heapSource: String {
        allocatedBytesOfSanitizer != nil
            ? "__sanitizer_get_current_allocated_bytes" : "glibc mallinfo2: uordblks + hblkhd"
    }

    static func now() -> MemorySample {
        if let allocatedBytesOfSanitizer {
            return MemorySample(heap: allocatedBytesOfSanitizer(), arenas: nil, resident: residentBytes())
        }
        #if canImport(Glibc)
            // Summed over every arena. `uordblks` is the chunks in use, including those parked
            // in threads' tcaches; `hblkhd` is the large blocks malloc maps on their own, which a
            // leaked big buffer would otherwise hide in.
            let info = mallinfo2()
            return MemorySample(
                heap: Int(info.uordblks + info.hblkhd), arenas: Int(info.arena), resident: residentBytes())
        #else
            return MemorySample(heap: nil, arenas: nil, resident: residentBytes())
        #endif
    }

    /// Under a sanitizer, malloc is the sanitizer's: glibc's arenas stay idle and `mallinfo2`
    /// says nothing about the soak, so ask the sanitizer's allocator instead. Its count is per
    /// allocation, with no per-thread caches to blur it. Looked up at run time because the same
    /// test sources are built with and without sanitizers.
    private static let allocatedBytesOfSanitizer: (@convention(c) () -> Int)? = {
        guard let symbol = dlsym(nil, "__sanitizer_get_current_allocated_bytes") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) () -> Int).self)
    }()

    private static func residentBytes() -> Int? {
        // The second field of statm is the resident set, in pages.
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// A byte count as the report prints it: KiB below a MiB, MiB with one decimal above.
func describeBytes(_ bytes: Int?) -> String {
    guard let bytes else { return "unknown" }
    if abs(bytes) < 1 << 20 { return "\(bytes / 1024) KiB" }
    let tenths = (bytes * 10) >> 20
    return "\(tenths / 10).\(abs(tenths % 10)) MiB"
}
