#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a detached pthread that runs `body` once, for Petal's background threads (the timer,
/// the diagnostics writer). A pthread rather than a `Thread` or a queue: it needs no Foundation
/// and no Dispatch pool thread is ever held by Petal.
///
/// - Returns: `pthread_create`'s status: 0 when the thread started.
func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Int32 {
    final class Entry: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    // The thread owns the entry (and what `body` captures) while it runs; it takes it back.
    let context = Unmanaged.passRetained(Entry(body)).toOpaque()
    #if canImport(Darwin)
        var thread: pthread_t? = nil
    #else
        var thread = pthread_t()
    #endif
    let status = pthread_create(
        &thread, &attributes,
        { context in
            Unmanaged<Entry>.fromOpaque(context!).takeRetainedValue().body()
            return nil
        }, context)
    if status != 0 { Unmanaged<Entry>.fromOpaque(context).release() }
    return status
}

/// Names the calling thread `name` (at most 15 bytes on Linux), so that `top -H`, `ps -L`, a
/// debugger and a profiler show which of a process's threads is Petal's: an unnamed thread takes
/// the name of the thread that started it (an event loop's, say), and its CPU would be counted
/// as that one's.
func nameCurrentThread(_ name: String) {
    #if canImport(Darwin)
        _ = pthread_setname_np(name)
    #else
        // A GNU extension that Swift's Glibc module does not declare (it needs _GNU_SOURCE):
        // looked up once, and skipped where the C library lacks it.
        typealias SetName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np") else { return }
        _ = unsafeBitCast(symbol, to: SetName.self)(pthread_self(), name)
    #endif
}
