import Synchronization

/// What one variant did, counted as it happens: its backend calls and its answers.
///
/// Atomics, not a lock: every backend call and every request touches these, from event-loop
/// threads, Swift concurrency's threads and Petal's timer thread at once, and a relaxed add is
/// the cheapest count that is exact. A class, because `Atomic` cannot be copied.
final class VariantCounters: Sendable {
    /// Backend calls made.
    let started = Atomic<Int>(0)
    /// Backend calls that answered (their handler ran).
    let answered = Atomic<Int>(0)
    /// Backend calls cancelled before answering (their handler was released unrun).
    let cancelled = Atomic<Int>(0)
    /// Requests answered 200, with the sum.
    let completed = Atomic<Int>(0)
    /// Requests answered 200 after their deadline had passed: answers the client had stopped
    /// waiting for (it gave up at the deadline), counted among `completed` too.
    let late = Atomic<Int>(0)
    /// Requests answered 504: the deadline passed first.
    let timedOut = Atomic<Int>(0)
    /// Requests answered 503 at once: refused by a concurrency limit, or by a shutdown.
    let shed = Atomic<Int>(0)
    /// Requests answered 503 because a backend call failed (`--faults`' outages).
    let failed = Atomic<Int>(0)
    /// The server-side latency of the requests answered 200 or 504, or 503 because a backend
    /// failed, per `/stats` window.
    let latency = LatencyWindow()

    /// Adds one to `counter`, as a relaxed add: counts need no ordering with anything else.
    static func increment(_ counter: borrowing Atomic<Int>) {
        counter.wrappingAdd(1, ordering: .relaxed)
    }

    /// Backend calls neither answered nor cancelled (read in the order `snapshot()` explains).
    var pending: Int {
        let answered = answered.load(ordering: .sequentiallyConsistent)
        let cancelled = cancelled.load(ordering: .sequentiallyConsistent)
        return started.load(ordering: .sequentiallyConsistent) - answered - cancelled
    }

    /// A snapshot for `/stats`, which starts a new latency window.
    ///
    /// Read in the reverse of the order the counts grow (outcomes before starts), so that
    /// `pending` is never negative even while calls are in flight.
    func snapshot() -> VariantStats {
        let answered = answered.load(ordering: .sequentiallyConsistent)
        let cancelled = cancelled.load(ordering: .sequentiallyConsistent)
        let started = started.load(ordering: .sequentiallyConsistent)
        let window = latency.take()
        return VariantStats(
            started: started, answered: answered, cancelled: cancelled,
            pending: started - answered - cancelled,
            completed: completed.load(ordering: .relaxed), timedOut: timedOut.load(ordering: .relaxed),
            shed: shed.load(ordering: .relaxed), failed: failed.load(ordering: .relaxed),
            late: late.load(ordering: .relaxed), hedges: 0,
            p50Milliseconds: window.p50, p99Milliseconds: window.p99, windowCount: window.count)
    }
}
