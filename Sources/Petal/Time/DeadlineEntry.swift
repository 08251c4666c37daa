/// One pending deadline: when it is due and what to run then.
///
/// An entry remembers where it sits in the scheduler's heap, so the scheduler can remove it in
/// O(log n) when the future it guards resolves first.
@usableFromInline
final class DeadlineEntry: @unchecked Sendable {
    // @unchecked: `deadline` is immutable; `sequence`, `heapIndex` and `action` are only touched
    // with the owning scheduler's mutex held.

    /// When the action is due.
    let deadline: ContinuousClock.Instant
    /// Schedule order, to break ties between equal deadlines first come, first served.
    var sequence: UInt64 = 0
    /// The entry's index in the heap, or `notScheduled`.
    var heapIndex = DeadlineEntry.notScheduled
    /// What to run when the deadline passes; dropped as soon as the entry leaves the heap, so a
    /// removed entry holds on to nothing.
    ///
    /// While a ``DeadlineTimer`` of the caller's keeps the entry (see
    /// `DeadlineScheduler.init(timer:)`), the timer's expiry holds the action and this holds what
    /// takes the entry off the timer, which releases the action with it. One field for both: an
    /// entry is what a pending retry, hedge or timeout holds, and a second closure would take it
    /// into the next allocation size (`RetryMemoryTests`).
    var action: (@Sendable () -> Void)?

    /// `heapIndex` of an entry in no heap: never scheduled, removed, or taken by its timer.
    static let notScheduled = -1
    /// `heapIndex` of an entry that a ``DeadlineTimer`` of the caller's keeps: in no heap, but
    /// scheduled.
    static let keptByTimer = Int.max

    @usableFromInline
    init(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) {
        self.deadline = deadline
        self.action = action
    }
}
