#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex with a condition variable on the monotonic clock: what a background thread
/// of Petal's (the timer, the diagnostics writer) and its clients share.
///
/// pthread primitives rather than `Synchronization.Mutex`: ThreadSanitizer understands them, and
/// a condition variable is needed to sleep until a deadline. Heap-allocated, so their addresses
/// never move.
final class Monitor: @unchecked Sendable {
    // @unchecked: the pointers never change; what they point to is pthread's to synchronise.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let mutexStatus = pthread_mutex_init(mutex, nil)
        precondition(mutexStatus == 0, "pthread_mutex_init failed: \(mutexStatus)")

        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        #if canImport(Darwin)
            let conditionStatus = pthread_cond_init(condition, nil)
        #else
            // Timed waits use the monotonic clock: a wall-clock change must not move them.
            var attributes = pthread_condattr_t()
            pthread_condattr_init(&attributes)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
            let conditionStatus = pthread_cond_init(condition, &attributes)
            pthread_condattr_destroy(&attributes)
        #endif
        precondition(conditionStatus == 0, "pthread_cond_init failed: \(conditionStatus)")
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Takes the mutex if no thread holds it; returns whether it did (then `unlock()` it).
    func tryLock() -> Bool { pthread_mutex_trylock(mutex) == 0 }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Wakes one waiter (call with the lock held).
    func signal() { pthread_cond_signal(condition) }

    /// Wakes every waiter (call with the lock held).
    func broadcast() { pthread_cond_broadcast(condition) }

    /// Waits until woken (lock held; released while waiting); may wake spuriously.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits until woken or for at most `duration` (lock held; released while waiting); may
    /// wake early.
    func wait(for duration: Duration) {
        let (seconds, attoseconds) = duration.components
        // Round up: waking a nanosecond early only to wait again would spin.
        let nanoseconds = Int((attoseconds + 999_999_999) / 1_000_000_000)
        #if canImport(Darwin)
            var relative = timespec(tv_sec: Int(seconds), tv_nsec: nanoseconds)
            pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
            var deadline = timespec()
            clock_gettime(CLOCK_MONOTONIC, &deadline)
            deadline.tv_sec += Int(seconds)
            deadline.tv_nsec += nanoseconds
            if deadline.tv_nsec >= 1_000_000_000 {
                deadline.tv_sec += 1
                deadline.tv_nsec -= 1_000_000_000
            }
            pthread_cond_timedwait(condition, mutex, &deadline)
        #endif
    }
}
