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
    var action: (@Sendable () -> Void)?

    /// `heapIndex` of an entry in no heap: never scheduled, or taken out.
    static let notScheduled = -1

    @usableFromInline
    init(deadline: ContinuousClock.Instant, action: @escaping @Sendable () -> Void) {
        self.deadline = deadline
        self.action = action
    }
}
