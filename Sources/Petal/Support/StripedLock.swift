#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fixed table of pthread mutexes shared by many small objects, each object locking the one
/// its address picks.
///
/// Why it exists: an object that needs a lock only on rare slow paths (a retry between
/// attempts: once per attempt and once on a cancellation request) should not carry a lock of
/// its own, which costs two allocations (the `PosixLock` object and its mutex, 96 bytes) for
/// as long as the object lives. Sharing 64 mutexes costs nothing per object; two objects
/// that pick the same stripe only wait for each other's few instructions. Code run under a
/// stripe must not take another stripe nor call out to user code, so stripes never nest.
enum StripedLock {
    private static let stripeCount = 64

    /// The mutexes, allocated once for the life of the process: their addresses never move.
    /// Unsafe: the pointer never changes and what it points to is pthread's to synchronise.
    nonisolated(unsafe) private static let stripes: UnsafeMutablePointer<pthread_mutex_t> = {
        let stripes = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: stripeCount)
        for index in 0..<stripeCount {
            (stripes + index).initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(stripes + index, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        return stripes
    }()

    /// Runs `body` holding the stripe of `object`.
    static func withLock<Result>(for object: AnyObject, _ body: () throws -> Result) rethrows -> Result {
        // Objects are 16-byte aligned: drop those bits, then mix so neighbours spread out.
        // The address itself, not `hashValue`, which runs SipHash (about 130 instructions a
        // lock, measured in a hedged call); the multiplication below spreads it well enough.
        let address = UInt(bitPattern: ObjectIdentifier(object)) >> 4
        let stripe = stripes + Int((address &* 0x9E37_79B9) % UInt(stripeCount))
        pthread_mutex_lock(stripe)
        defer { pthread_mutex_unlock(stripe) }
        return try body()
    }
}
