/// A scheduler whose heap a ``DeadlineTimer`` of the caller's wakes (see
/// `DeadlineScheduler.init(timer:)`), in place of Petal's timer thread.
///
/// The entries stay in the scheduler's heap, under its lock: scheduling and cancelling are the
/// thread's, O(log n), and the one-shot between a deadline and the work it guards is decided
/// there, as on the thread. The timer is only asked to wake the heap at its earliest deadline,
/// and only when that comes earlier than the wake-up it was last asked for: in a service whose
/// requests' deadlines come in order, one wake-up serves many deadlines, and a deadline taken out
/// in time (the usual case) costs the timer nothing. An event loop's own cancellation would
/// cost more: NIO finds a scheduled task to cancel by walking its whole queue.
extension DeadlineScheduler {
    /// Asks the timer for a wake-up at `deadline` unless one is asked for at or before it
    /// (lock held).
    ///
    /// - Returns: The timer's refusal, if it would not take the wake-up.
    func armTimer(for deadline: ContinuousClock.Instant) -> TimerUnavailableError? {
        if let earliest = locked.pointee.armed.last, earliest <= deadline { return nil }
        do throws(TimerUnavailableError) {
            // Weakly: the timer holds the wake-up until it runs, perhaps for ever (a loop that
            // shut down), and must not keep a clock nobody else holds, nor its heap, alive.
            try timer.unsafelyUnwrapped.timer.schedule(at: deadline) { [weak self] in
                self?.wake(armedFor: deadline)
            }
        } catch {
            return error
        }
        locked.pointee.armed.append(deadline)
        return nil
    }

    /// The timer's wake-up for `instant`: runs every action due by then, outside the lock,
    /// earliest first, and asks for the next wake-up.
    ///
    /// The wake-up itself says that `instant` has come, by the timer's clock: what is due by it
    /// runs even if `ContinuousClock` reads a hair earlier. A wake-up that finds nothing due (its
    /// deadline was taken out) only asks for the next.
    private func wake(armedFor instant: ContinuousClock.Instant) {
        var due: [(deadline: ContinuousClock.Instant, action: @Sendable () -> Void)] = []
        withLock {
            // Usually the last: a timer wakes its earliest first.
            if let index = locked.pointee.armed.lastIndex(of: instant) { locked.pointee.armed.remove(at: index) }
            let now = Swift.max(ContinuousClock.now, instant)
            while let first = locked.pointee.heap.first, first.deadline <= now {
                due.append((first.deadline, first.action.take().unsafelyUnwrapped))
                locked.pointee.heap.remove(at: 0)
            }
            // A timer that refuses now (its loop shut down) leaves the rest pending: there is no
            // one left to run them, as `DeadlineClock.eventLoop(_:)` documents.
            if let next = locked.pointee.heap.first { _ = armTimer(for: next.deadline) }
        }
        for (deadline, action) in due {
            // As on Petal's timer thread: a late action (a loop held up by its other work) is
            // worth knowing.
            PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: .now, ownTimer: true)
            action()
        }
    }
}

/// A ``DeadlineTimer`` held by reference (see `DeadlineScheduler.timer`).
final class DeadlineTimerBox: Sendable {
    let timer: any DeadlineTimer

    init(_ timer: any DeadlineTimer) {
        self.timer = timer
    }
}
