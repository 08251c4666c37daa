#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs `body(index)` on `count` new POSIX threads that start together, and returns once every
/// one of them has exited.
///
/// Unlike `onThreads`, which returns when the bodies have finished, this joins the threads: a
/// thread's exit frees its malloc cache (glibc's tcache), so a heap sample taken afterwards does
/// not depend on how far the threads had got with exiting. `pthread_join` also orders everything
/// the threads did before whatever the caller does next, for ThreadSanitizer too.
func onJoinedThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = Barrier(parties: count)
    var threads: [pthread_t] = []
    for index in 0..<count {
        // Retained here, released by the thread: the argument outlives this loop.
        let start = Unmanaged.passRetained(ThreadStart(index: index, barrier: barrier, body: body)).toOpaque()
        #if canImport(Glibc)
            var thread = pthread_t()
        #else
            var thread: pthread_t?
        #endif
        let created = pthread_create(
            &thread, nil,
            { argument in
                let start = Unmanaged<ThreadStart>.fromOpaque(argument!).takeRetainedValue()
                start.barrier.arriveAndWait()
                start.body(start.index)
                return nil
            }, start)
        precondition(created == 0, "pthread_create failed: \(created)")
        #if canImport(Glibc)
            threads.append(thread)
        #else
            threads.append(thread!)
        #endif
    }
    for thread in threads {
        let joined = pthread_join(thread, nil)
        precondition(joined == 0, "pthread_join failed: \(joined)")
    }
}

/// What a thread started by ``onJoinedThreads(_:_:)`` needs, passed through `pthread_create`'s
/// one pointer.
private final class ThreadStart: Sendable {
    let index: Int
    let barrier: Barrier
    let body: @Sendable (Int) -> Void

    init(index: Int, barrier: Barrier, body: @escaping @Sendable (Int) -> Void) {
        self.index = index
        self.barrier = barrier
        self.body = body
    }
}
