import Petal

/// Petal's process-wide counters that `/stats` reports, by name.
///
/// To report another counter, add one line here: nothing else changes.
enum PetalCounters {
    /// A counter's name in `/stats`, and how to read it.
    struct Counter: Sendable {
        /// The key in the `petal` object.
        let name: String
        /// Reads the counter now.
        let read: @Sendable () -> Int
    }

    /// Every counter reported: one per kind of diagnostic (`abandonedPromiseCount`, …), and
    /// the gauges of pending work: deadlines in Petal's timer heap, parked waits, open
    /// cancellation records.
    static let all: [Counter] =
        PetalDiagnostic.Kind.allCases.map { kind in
            Counter(name: "\(kind.rawValue)Count") { PetalDiagnostics.count(of: kind) }
        } + [
            // 0 once the load is over, if every timeout that was met took its deadline out.
            Counter(name: "pendingTimeoutCount") { DeadlineClock.continuous.pendingDeadlineCount },
            Counter(name: "droppedLineCount") { PetalDiagnostics.droppedLineCount },
            // 0 once the load is over: no wait left parked, no cancellable work kept alive.
            Counter(name: "parkedWaitCount") { PetalDiagnostics.parkedWaitCount },
            Counter(name: "openCancellationRecordCount") { PetalDiagnostics.openCancellationRecordCount },
        ]
}
