/// A scheduler whose deadlines a ``DeadlineTimer`` of the caller's keeps (see
/// `DeadlineScheduler.init(timer:)`).
///
/// The one-shot is the heap's: an entry is kept (`heapIndex` is `keptByTimer`) from the moment
/// it is handed to the timer until its expiry or a cancellation takes it, and whichever takes it,
/// under the scheduler's lock, decides whether the deadline or the work won. The timer only
/// wakes the expiry; it decides nothing.
extension DeadlineScheduler {
    /// Hands `entry` to `timer`, under the lock: its expiry, on the timer's thread, then finds it
    /// kept, and a cancellation racing with this call finds it either not yet scheduled (which
    /// the caller's order rules out) or kept, never half-scheduled.
    func scheduleOnTimer(_ entry: DeadlineEntry) throws(TimerUnavailableError) {
        let timer = timer.unsafelyUnwrapped.timer
        let failure: TimerUnavailableError? = withLock {
            precondition(entry.heapIndex == DeadlineEntry.notScheduled, "Petal: a deadline was scheduled twice")
            // The expiry holds the action; the entry holds what takes it off the timer.
            let action = entry.action.take().unsafelyUnwrapped
            do throws(TimerUnavailableError) {
                entry.action = try timer.schedule(at: entry.deadline) { [self] in expire(entry, running: action) }
            } catch {
                entry.action = action
                return error
            }
            entry.heapIndex = DeadlineEntry.keptByTimer
            timerPending += 1
            return nil
        }
        if let failure { throw failure }
    }

    /// `cancel(_:)` on a timer of the caller's: takes `entry` if its expiry has not, and then
    /// takes it off the timer, outside the lock (an event loop's cancellation from another thread
    /// takes the loop's own lock).
    func cancelOnTimer(_ entry: DeadlineEntry) -> Bool {
        let taken: DeadlineTimerCancellation?? = withLock {
            guard entry.heapIndex == DeadlineEntry.keptByTimer else { return nil }
            entry.heapIndex = DeadlineEntry.notScheduled
            timerPending -= 1
            return .some(entry.action.take())
        }
        guard let taken else { return false }
        taken?()
        return true
    }

    /// The timer fired for `entry`: runs `action`, outside the lock, unless a cancellation took
    /// the entry first.
    private func expire(_ entry: DeadlineEntry, running action: @Sendable () -> Void) {
        let won: Bool = withLock {
            guard entry.heapIndex == DeadlineEntry.keptByTimer else { return false }
            entry.heapIndex = DeadlineEntry.notScheduled
            entry.action = nil  // the cancellation: nothing is left to take off
            timerPending -= 1
            return true
        }
        guard won else { return }
        // As on Petal's timer thread: a late expiry (a loop held up by its other work) is worth
        // knowing.
        PetalDiagnostics.reportLateTimer(deadline: entry.deadline, ranAt: .now, ownTimer: true)
        action()
    }
}

/// A ``DeadlineTimer`` held by reference (see `DeadlineScheduler.timer`).
final class DeadlineTimerBox: Sendable {
    let timer: any DeadlineTimer

    init(_ timer: any DeadlineTimer) {
        self.timer = timer
    }
}
