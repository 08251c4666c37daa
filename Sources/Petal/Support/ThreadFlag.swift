#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A flag each thread sets and reads for itself.
///
/// Why it exists: a process-wide handler Petal calls (the diagnostics handler) may call back
/// into Petal, and what it does there may report again; the thread has to know that it is
/// already inside. A pthread key, not a C `_Thread_local`: this is Swift's concern, not the
/// core's, and the rare paths that read it can afford a call.
final class ThreadFlag: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
    }

    /// Whether this thread has the flag set.
    var isSet: Bool { pthread_getspecific(key) != nil }

    /// Runs `body` with the flag set on this thread, then clears it.
    func whileSet<Result>(_ body: () throws -> Result) rethrows -> Result {
        // Any non-nil pointer marks the flag; nothing is ever stored behind it.
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1))
        defer { pthread_setspecific(key, nil) }
        return try body()
    }
}
