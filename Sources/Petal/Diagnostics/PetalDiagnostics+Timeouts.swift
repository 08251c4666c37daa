extension PetalDiagnostics {
    /// How many timeouts are waiting for their deadline in the process-wide timer, for tests
    /// that check a timeout whose future resolved in time leaves nothing behind.
    ///
    /// A snapshot: other threads may add or remove timeouts while it is read.
    @_spi(Diagnostics)
    public static var pendingTimeoutCount: Int {
        DeadlineScheduler.shared.pendingCount
    }
}
