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

    /// Every counter reported.
    static let all: [Counter] = [
        Counter(name: "abandonedPromiseCount") { PetalDiagnostics.abandonedPromiseCount },
        Counter(name: "unobservedFailureCount") { PetalDiagnostics.unobservedFailureCount },
        Counter(name: "repeatedResolutionCount") { PetalDiagnostics.repeatedResolutionCount },
        Counter(name: "lateTimerCount") { PetalDiagnostics.lateTimerCount },
        // Deadlines still waiting in Petal's timer heap: 0 once the load is over, if every
        // timeout that was met took its deadline out.
        Counter(name: "pendingTimeoutCount") { DeadlineClock.continuous.pendingDeadlineCount },
        Counter(name: "adjustedArgumentCount") { PetalDiagnostics.adjustedArgumentCount },
        Counter(name: "repeatedJobStartCount") { PetalDiagnostics.repeatedJobStartCount },
        Counter(name: "droppedLineCount") { PetalDiagnostics.droppedLineCount },
    ]
}
