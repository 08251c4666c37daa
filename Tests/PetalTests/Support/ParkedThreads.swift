import Foundation

/// Threads that wait, parked on a condition, for the next `onThreads` call, rather than a fresh
/// set per call.
///
/// Why it exists: the concurrency tests start threads round after round, and under the
/// sanitizers a thread's start and end cost more than the round (ThreadSanitizer maps its
/// state and unmaps it, and each unmapping stops both cores to flush their TLBs: in a
/// profile of the release TSan run, 42% of its samples, and 361 s of system time against 43 s
/// of user time). Calls from tests running in parallel each take threads of their own: the
/// set grows to the most ever busy at once and stays.
///
/// What a reused thread keeps from the call before: nothing a test binds, since every binding
/// is scoped to the body that made it; the hand-over (a lock and a condition) orders the
/// earlier body before the next for ThreadSanitizer, as a thread's creation did.
final class ParkedThreads: @unchecked Sendable {
    // @unchecked: `idle` only under `lock`.
    static let shared = ParkedThreads()

    private let lock = NSLock()
    private var idle: [Parked] = []

    /// Runs `body(index)` for each index below `count`, each on a thread of its own, and
    /// returns once every body has returned.
    func run(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let finished = DispatchGroup()
        let threads = take(count)
        for (index, thread) in threads.enumerated() {
            finished.enter()
            let handed = HandedBody(body)
            thread.hand {
                handed.run(index)
                finished.leave()
            }
        }
        finished.wait()
        // One by one: `append(contentsOf:)` into an empty `idle` adopts the argument's buffer,
        // which this call's `threads` still shares after the lock is released; the array's
        // reference count is not seen by ThreadSanitizer, so the next `take` writing that
        // buffer in place was reported as a race with this call's reads.
        lock.withLock {
            for thread in threads { idle.append(thread) }
        }
    }

    /// `count` threads: idle ones first, then new ones. The array is built here, element by
    /// element, so that it shares no buffer with `idle` (see `run`).
    private func take(_ count: Int) -> [Parked] {
        var taken: [Parked] = []
        taken.reserveCapacity(count)
        lock.withLock {
            while taken.count < count, let thread = idle.popLast() { taken.append(thread) }
        }
        while taken.count < count { taken.append(Parked()) }
        return taken
    }
}

/// One parked thread: it runs what it is handed, one piece of work at a time, and waits on its
/// condition in between (no spinning, so an idle set costs nothing while other tests run).
private final class Parked: @unchecked Sendable {
    // @unchecked: `work` only under `condition`'s lock.
    private let condition = NSCondition()
    private var work: (@Sendable () -> Void)?

    init() {
        let thread = Thread { [self] in
            while true { next()() }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Gives the thread `work`. Called only while the thread is idle or finishing the work
    /// before, which it handed back through `finished` (see `ParkedThreads.run`).
    func hand(_ work: @escaping @Sendable () -> Void) {
        condition.withLock {
            self.work = work
            condition.signal()
        }
    }

    private func next() -> @Sendable () -> Void {
        condition.withLock {
            while work == nil { condition.wait() }
            defer { work = nil }
            return work.unsafelyUnwrapped
        }
    }
}

/// A body handed to a parked thread, let go of before the thread reports it finished: when
/// `onThreads` returns, no parked thread still holds what the body captured (a test that counts
/// releases can count them then).
private final class HandedBody: @unchecked Sendable {
    // @unchecked: `body` is read and cleared only by the one thread it is handed to.
    private var body: (@Sendable (Int) -> Void)?

    init(_ body: @escaping @Sendable (Int) -> Void) {
        self.body = body
    }

    func run(_ index: Int) {
        let body = self.body.take()
        body.unsafelyUnwrapped(index)
    }
}
