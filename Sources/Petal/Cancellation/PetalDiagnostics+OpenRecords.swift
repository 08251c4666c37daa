extension PetalDiagnostics {
    /// Futures that hold a cancellation record now: those of jobs, of promises with a
    /// cancellation handler, and those chained onto them or asked to cancel, while they live.
    ///
    /// A gauge for a service's metrics: it rises and falls with the work in flight that can be
    /// cancelled, and one that only grows is work kept alive past its use. A snapshot; keeping
    /// it costs one uncontended atomic add when a record is made and one when it is freed.
    public static var openCancellationRecordCount: Int {
        CancellationRecord.openCount.value
    }
}
