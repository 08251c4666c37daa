import Foundation
import Synchronization

/// Runs `body(index)` on `count` threads that start together, and returns once all have
/// finished. The start barrier spins (no sleeps) so the threads overlap as much as they can.
///
/// The threads are `ParkedThreads`', kept from call to call: a fresh thread per call made the
/// sanitizer runs spend most of their time in the kernel (ThreadSanitizer maps and unmaps each
/// thread's state, and every unmapping flushes both cores' TLBs).
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let barrier = Barrier(parties: count)
    ParkedThreads.shared.run(count) { index in
        barrier.arriveAndWait()
        body(index)
    }
}

/// A spinning start barrier for `parties` threads.
final class Barrier: Sendable {
    private let waiting = Atomic<Int>(0)
    private let parties: Int

    init(parties: Int) {
        self.parties = parties
    }

    func arriveAndWait() {
        waiting.add(1, ordering: .acquiringAndReleasing)
        while waiting.load(ordering: .acquiring) < parties {
            sched_yield()  // yield, not sleep: it only hands the core to the other threads
        }
    }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)

    func increment() { storage.add(1, ordering: .relaxed) }

    var value: Int { storage.load(ordering: .acquiring) }
}

/// Records events in the order they happen, from any thread.
///
/// NSLock rather than Synchronization.Mutex: ThreadSanitizer cannot see the latter's ordering.
final class Recorder<Event: Sendable>: @unchecked Sendable {
    // @unchecked: `storage` is only touched with `lock` held.
    private let lock = NSLock()
    private var storage: [Event] = []

    func record(_ event: Event) { lock.withLock { storage.append(event) } }

    /// A snapshot. `map` makes a new buffer while the lock is held: returning `storage` itself
    /// shares its buffer with later appends, and an optimised build may read that buffer after
    /// the lock is released while another thread appends in place (ThreadSanitizer caught it).
    var events: [Event] { lock.withLock { storage.map { $0 } } }
}

/// A plain error to reject and cancel with.
struct TestError: Error, Equatable {
    let code: Int
    init(_ code: Int = 0) { self.code = code }
}

/// An object whose lifetime the memory tests watch.
final class Tracked: Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// Scales iteration counts: fewer under ThreadSanitizer-sized budgets when PETAL_TEST_SCALE is set
/// (e.g. 0.25), never fewer than a floor that still exercises the races.
func scaled(_ count: Int, floor: Int = 10) -> Int {
    guard let text = ProcessInfo.processInfo.environment["PETAL_TEST_SCALE"], let scale = Double(text) else {
        return count
    }
    return max(floor, Int(Double(count) * scale))
}

/// Links in the chains that prove a chain of any length runs without deepening the stack: a
/// million, or that times PETAL_CHAIN_SCALE. CI runs a quarter in the sanitizers' debug builds,
/// where a million took 200 s (TSan) and 90 s (ASan) of one core for nothing a quarter does not
/// show: each chain runs on one thread, and a stack that grew with the chain would overflow at a
/// few thousand links.
let deepChainLinks: Int = {
    guard let text = ProcessInfo.processInfo.environment["PETAL_CHAIN_SCALE"], let scale = Double(text) else {
        return 1_000_000
    }
    return max(100_000, Int(1_000_000 * scale))
}()

/// Runs work on a new thread and lets the test wait for it.
final class DispatchGroupBox: Sendable {
    private let group = DispatchGroup()

    func run(_ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread {
            body()
            self.group.leave()
        }.start()
    }

    func wait() { group.wait() }
}
