#if NIO
    import Foundation
    import NIOCore
    import NIOPosix
    import Synchronization

    /// Runs `body` with a fresh event loop group of `threads` loops, and shuts the group down
    /// afterwards, whether `body` returned or threw: no test leaves loop threads behind.
    ///
    /// The tests block (`wait()`) rather than `await`: ThreadSanitizer reports a continuation
    /// resumed on a loop's thread as racing with the awaiting task's next use of the same task
    /// memory, a hand-over inside the concurrency runtime that it cannot see.
    func withEventLoopGroup<Result>(
        threads: Int = 1, _ body: (MultiThreadedEventLoopGroup) throws -> Result
    ) throws -> Result {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
        let result: Result
        do {
            result = try body(group)
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        try group.syncShutdownGracefully()
        return result
    }

    /// A count that any thread may bump.
    final class Tally: Sendable {
        private let count = Atomic(0)

        func add(_ amount: Int = 1) {
            // Relaxed: the tests read the total only after waiting on the futures that bumped it.
            count.add(amount, ordering: .relaxed)
        }

        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A flag set once, by any thread.
    final class Flag: Sendable {
        private let state = Atomic(false)

        func set() { state.store(true, ordering: .relaxed) }

        var isSet: Bool { state.load(ordering: .relaxed) }
    }

    /// Values appended from any thread, read once the appending threads are done.
    ///
    /// NSLock rather than Synchronization.Mutex: ThreadSanitizer cannot see the latter's ordering.
    final class Collected<Element: Sendable>: @unchecked Sendable {
        // @unchecked: `storage` is only touched with `lock` held.
        private let lock = NSLock()
        private var storage: [Element] = []

        func append(contentsOf elements: [Element]) { lock.withLock { storage += elements } }

        /// A copy made under the lock, so that it shares no buffer with later appends.
        var elements: [Element] { lock.withLock { storage.map { $0 } } }
    }

    /// The error the tests reject and fail with.
    struct Boom: Error, Equatable {
        let code: Int
    }

    /// Runs `body` on `count` threads of its own, started together, and returns when all have
    /// finished (the wait orders everything they did before what the caller does next).
    func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchGroup()
        let ready = Tally()
        for index in 0..<count {
            finished.enter()
            Thread.detachNewThread {
                ready.add()
                // A spin, not a sleep: start together so that the threads contend.
                while ready.value < count { sched_yield() }
                body(index)
                finished.leave()
            }
        }
        finished.wait()
    }
#endif
