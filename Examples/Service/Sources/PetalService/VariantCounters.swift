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
    /// Requests answered 504: the deadline passed first.
    let timedOut = Atomic<Int>(0)

    /// Adds one to `counter`, as a relaxed add: counts need no ordering with anything else.
    static func increment(_ counter: borrowing Atomic<Int>) {
        counter.wrappingAdd(1, ordering: .relaxed)
    }

    /// A snapshot for `/stats`.
    ///
    /// Read in the reverse of the order the counts grow (outcomes before starts), so that
    /// `pending` is never negative even while calls are in flight.
    var snapshot: VariantStats {
        let answered = answered.load(ordering: .sequentiallyConsistent)
        let cancelled = cancelled.load(ordering: .sequentiallyConsistent)
        let started = started.load(ordering: .sequentiallyConsistent)
        return VariantStats(
            started: started, answered: answered, cancelled: cancelled,
            pending: started - answered - cancelled,
            completed: completed.load(ordering: .relaxed), timedOut: timedOut.load(ordering: .relaxed))
    }
}
