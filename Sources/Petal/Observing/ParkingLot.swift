import CPetal

/// Where threads and tasks wait for a future to be resolved, outside the future itself.
///
/// Why: a wait that gives up (a timed-out `wait(timeout:)`, a cancelled `await value`) must not
/// leave anything behind in the future, or a service that polls a long-lived future grows
/// without bound. So a waiter puts nothing in the future's waiter list. It marks the cell PARKED
/// (one CAS, refused once the cell is RESOLVED; see `petal_cell_park` and
/// `Tests/Model/petal_wait.pml`) and sleeps in, or parks its continuation in, one of a fixed
/// table of buckets chosen by the cell's address. The thread that makes the cell RESOLVED (once
/// every callback has run, so a wait returns after the callbacks subscribed before it) gets
/// PARKED back in the word it replaced and wakes the bucket (``unpark(_:)``): a broadcast for
/// sleeping threads, and a resume for each parked task of that cell. Whoever gives up takes only
/// itself out of the bucket. Futures sharing a bucket share only spurious wake-ups.
@usableFromInline
enum ParkingLot {
    /// Buckets: a power of two, enough that unrelated waits rarely share one.
    static let bucketCount: UInt32 = 64

    static let buckets: [ParkingBucket] = (0..<Int(bucketCount)).map { _ in ParkingBucket() }

    /// The bucket of `cell`: the same for every party, by the cell's address alone.
    static func bucket(for cell: UnsafeMutablePointer<petal_cell>) -> ParkingBucket {
        buckets[Int(petal_parking_bucket(cell, bucketCount))]
    }

    /// Threads asleep and tasks parked in every bucket (a snapshot, one bucket at a time).
    static var waitingCount: Int {
        buckets.reduce(0) { $0 + $1.waitingCount }
    }

    /// Wakes every thread and task waiting for `cell`, which the caller has just made RESOLVED
    /// with a word that had PARKED (Core calls it through its hook; the hot paths only test the bit).
    static func unpark(_ cell: UnsafeMutablePointer<petal_cell>) {
        bucket(for: cell).wake(cell)
    }
}

/// Core's hook for a cell published with PARKED (`petal_swift_hooks.h`): only the waits here
/// set that bit.
@_cdecl("petal_swift_unpark")
func unparkResolved(_ cell: UnsafeMutablePointer<petal_cell>) {
    ParkingLot.unpark(cell)
}

/// A task parked in a bucket until its cell is RESOLVED (see ``ParkingLot``).
///
/// Membership in the bucket's list is ownership of the task's continuation: whoever takes the
/// entry out of the list, under the bucket's lock (the wake, or the task's cancellation),
/// resumes it, outside the lock.
protocol ParkedTask: AnyObject {
    /// The cell it waits for.
    var cell: UnsafeMutablePointer<petal_cell> { get }
    /// Resumes the task with the cell's outcome (the cell is RESOLVED).
    func resumeResolved()
}

/// One bucket of the parking table: a mutex with a condition for sleeping threads, and the
/// tasks parked here.
///
/// `@unchecked Sendable`: `tasks` and `sleepers` are only touched with `monitor` locked;
/// `monitor` never changes.
final class ParkingBucket: @unchecked Sendable {
    let monitor = Monitor()
    private var tasks: [any ParkedTask] = []
    /// Threads inside ``sleep(until:on:)`` with the cell not yet RESOLVED.
    private var sleepers = 0

    /// Sleeps until `cell` is RESOLVED, or until `deadline`. Returns whether it is.
    func sleep(until deadline: ContinuousClock.Instant?, on cell: UnsafeMutablePointer<petal_cell>) -> Bool {
        monitor.lock()
        sleepers += 1
        defer {
            sleepers -= 1
            monitor.unlock()
        }
        // Parked (the recheck: refused once RESOLVED) before every sleep, under the lock the
        // resolver broadcasts under: its wake cannot fall between the check and the sleep.
        while petal_cell_park(cell) != 0 {
            guard let deadline else {
                monitor.wait()
                continue
            }
            let now = ContinuousClock.now
            guard now < deadline else { return false }
            // In steps of at most a day: the condition's own deadline must stay representable.
            monitor.wait(for: min(now.duration(to: deadline), .seconds(86_400)))
        }
        return true
    }

    /// Parks `task` unless its cell is RESOLVED already. Call with the lock held.
    ///
    /// - Returns: `true` if parked (the wake or a ``removeLocked(_:)`` will take it); `false`
    ///   if the cell is RESOLVED: the caller resumes the task itself.
    func parkLocked(_ task: any ParkedTask) -> Bool {
        guard petal_cell_park(task.cell) != 0 else { return false }
        tasks.append(task)
        return true
    }

    /// Takes `task` out of the list (a cancelled wait) if it is still there. Call with the lock
    /// held. Returns whether it was: then the caller owns its continuation.
    func removeLocked(_ task: any ParkedTask) -> Bool {
        guard let index = tasks.firstIndex(where: { $0 === task }) else { return false }
        tasks.swapAt(index, tasks.count - 1)
        tasks.removeLast()
        return true
    }

    /// Threads and tasks waiting here, for any cell.
    var waitingCount: Int {
        monitor.withLock { sleepers + tasks.count }
    }

    /// How many tasks wait here for `cell` (tests).
    func parkedTaskCount(for cell: UnsafeMutablePointer<petal_cell>) -> Int {
        monitor.withLock { tasks.count { $0.cell == cell } }
    }

    /// Wakes the sleepers (all of the bucket's: each rechecks its own cell) and resumes the tasks
    /// of `cell`, outside the lock.
    fileprivate func wake(_ cell: UnsafeMutablePointer<petal_cell>) {
        var woken: [any ParkedTask] = []
        monitor.withLock {
            monitor.broadcast()
            // Swift's arrays keep their capacity on removal: the list never shrinks below what
            // the most tasks parked at once needed, which is bounded by those waits, not by time.
            tasks.removeAll { task in
                guard task.cell == cell else { return false }
                woken.append(task)
                return true
            }
        }
        for task in woken { task.resumeResolved() }
    }
}
