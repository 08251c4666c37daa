// The whole module is the Metrics trait's: without it, this target compiles to nothing and its
// swift-metrics dependency is neither resolved nor built.
#if Metrics
    import CoreMetrics
    import Petal
    import Synchronization

    /// Petal's counts and gauges, published through swift-metrics by sampling.
    ///
    /// ```swift
    /// let metrics = PetalMetrics()                      // after MetricsSystem.bootstrap(...)
    /// group.addTask { await metrics.run(every: .seconds(10)) }  // until the task is cancelled
    /// ```
    ///
    /// Sampled, not pushed: Petal already counts every diagnostic per site and keeps its pending
    /// work countable (see ``Petal/PetalDiagnostics``), so a sample reads those counts and moves
    /// the metrics by what changed. Nothing is added to the path of a promise, a callback or a
    /// resolution, whatever the backend costs; with metrics on, a service pays one sample per
    /// interval (reading Petal's fixed site table and the 64 parking buckets), on the task that
    /// runs ``run(every:)``. The diagnostics ``Petal/PetalDiagnostics/handler`` stays free for
    /// logging.
    ///
    /// Published, each label prefixed with `labelPrefix` and an underscore (`petal` by default):
    ///
    /// | Label | Type | What |
    /// |---|---|---|
    /// | `petal_diagnostics_total`, dimension `kind` | counter | reports of each ``Petal/PetalDiagnostic/Kind`` (`repeatedResolution`, `abandonedPromise`, `unobservedFailure`, `lateTimer`, ...) |
    /// | `petal_diagnostic_lines_dropped_total` | counter | lines the default handler could not write |
    /// | `petal_pending_deadlines` | gauge | timeouts and delayed retries armed on the process's clock |
    /// | `petal_parked_waits` | gauge | threads in `wait()` and tasks in `await` on a pending future |
    /// | `petal_open_cancellation_records` | gauge | futures holding a cancellation record |
    ///
    /// A counter starts from the counts of the first sample's moment: reports from before a
    /// `PetalMetrics` was made are not published, so two instances publish the same increments.
    /// Make one per process.
    public final class PetalMetrics: Sendable {
        /// Counts already published, one per kind, and the dropped lines'.
        private let published: Mutex<[Int]>
        private let diagnostics: [(kind: PetalDiagnostic.Kind, counter: Counter)]
        private let droppedLines: Counter
        private let pendingDeadlines: Gauge
        private let parkedWaits: Gauge
        private let openCancellationRecords: Gauge

        /// Makes the metrics with `factory`, at zero, and takes Petal's counts now as their start.
        ///
        /// - Parameters:
        ///   - labelPrefix: What every label starts with, before an underscore.
        ///   - factory: Where the metrics go; the bootstrapped `MetricsSystem.factory` by default.
        public init(labelPrefix: String = "petal", factory: any MetricsFactory = MetricsSystem.factory) {
            diagnostics = PetalDiagnostic.Kind.allCases.map { kind in
                (
                    kind,
                    Counter(
                        label: "\(labelPrefix)_diagnostics_total", dimensions: [("kind", kind.rawValue)],
                        factory: factory)
                )
            }
            droppedLines = Counter(label: "\(labelPrefix)_diagnostic_lines_dropped_total", factory: factory)
            pendingDeadlines = Gauge(label: "\(labelPrefix)_pending_deadlines", factory: factory)
            parkedWaits = Gauge(label: "\(labelPrefix)_parked_waits", factory: factory)
            openCancellationRecords = Gauge(label: "\(labelPrefix)_open_cancellation_records", factory: factory)
            published = Mutex(Self.counts())
        }

        /// Takes one sample: moves each counter by what Petal counted since the last one, and
        /// sets each gauge. Samples taken on several threads at once are taken one at a time.
        public func update() {
            published.withLock { published in
                let now = Self.counts()
                for (index, entry) in diagnostics.enumerated() where now[index] > published[index] {
                    entry.counter.increment(by: now[index] - published[index])
                }
                if now[diagnostics.count] > published[diagnostics.count] {
                    droppedLines.increment(by: now[diagnostics.count] - published[diagnostics.count])
                }
                published = now
                pendingDeadlines.record(DeadlineClock.continuous.pendingDeadlineCount)
                parkedWaits.record(PetalDiagnostics.parkedWaitCount)
                openCancellationRecords.record(PetalDiagnostics.openCancellationRecordCount)
            }
        }

        /// Takes a sample every `interval` until the calling task is cancelled, and one last
        /// sample then, so that what was counted up to the end is published.
        ///
        /// Shaped for a service's task group, or a swift-service-lifecycle `Service` whose
        /// `run()` calls it. An `interval` of zero or less samples every second.
        public func run(every interval: Duration = .seconds(10)) async {
            let interval = interval > .zero ? interval : .seconds(1)
            while !Task.isCancelled {
                update()
                try? await Task.sleep(for: interval)
            }
            update()
        }

        /// Petal's counts now: one per kind, in `allCases` order, then the dropped lines.
        private static func counts() -> [Int] {
            PetalDiagnostic.Kind.allCases.map { PetalDiagnostics.count(of: $0) } + [PetalDiagnostics.droppedLineCount]
        }
    }
#endif
