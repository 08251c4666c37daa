extension PetalDiagnostics {
    /// Waits in progress: threads blocked in `wait()` or `wait(timeout:)`, and tasks suspended
    /// in `await` on a future, that it has not yet resolved.
    ///
    /// A gauge for a service's metrics: in a service that awaits its futures, it follows the
    /// requests in flight, and one that only grows is a wait that never ends. A snapshot, read
    /// under each of the 64 parking buckets' locks in turn: sample it, do not poll it in a loop.
    public static var parkedWaitCount: Int {
        ParkingLot.waitingCount
    }
}
