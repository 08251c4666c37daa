// The whole module is the Metrics trait's: without it, this target compiles to nothing and its
// swift-metrics dependency is neither resolved nor built.
#if Metrics
    import CoreMetrics
    import Petal

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
    /// | `petal_circuit_breaker_state`, dimension `breaker` | gauge | each breaker passed to ``track(_:)``: 0 closed, 1 half-open, 2 open |
    ///
    /// A breaker's gauge is its state at the sample; the changes between two samples are counted
    /// in `petal_diagnostics_total` (kind `circuitBreakerStateChanged`).
    ///
    /// A counter starts from the counts of the first sample's moment: reports from before a
    /// `PetalMetrics` was made are not published, so two instances publish the same increments.
    /// Make one per process.
    public final class PetalMetrics: Sendable {
        /// Counts already published, one per kind, and the dropped lines'. Petal's pthread lock,
        /// here and for `breakers`, not Synchronization.Mutex: ThreadSanitizer cannot see the
        /// ordering of Mutex's inline fast path, and reported samples taken at once on several
        /// threads as racing on the breakers' list.
        private let published: PosixLock<[Int]>
        private let diagnostics: [(kind: PetalDiagnostic.Kind, counter: Counter)]
        private let droppedLines: Counter
        private let pendingDeadlines: Gauge
        private let parkedWaits: Gauge
        private let openCancellationRecords: Gauge
        private let labelPrefix: String
        private let factory: any MetricsFactory
        /// The breakers ``track(_:)`` was given, each with its gauge; held weakly, so that a
        /// breaker dropped by the service is dropped here too.
        private let breakers = PosixLock<[TrackedBreaker]>([])

        private struct TrackedBreaker {
            weak var breaker: CircuitBreaker?
            let gauge: Gauge
        }

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
            self.labelPrefix = labelPrefix
            self.factory = factory
            published = PosixLock(Self.counts())
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
            breakers.withLock { tracked in
                tracked.removeAll { $0.breaker == nil }
                for entry in tracked {
                    entry.breaker.map { entry.gauge.record(Self.gaugeValue(of: $0.state)) }
                }
            }
        }

        /// Publishes `breaker`'s state from now on, at every sample, as the gauge
        /// `petal_circuit_breaker_state` with the dimension `breaker` (its name): 0 closed, 1
        /// half-open, 2 open, so that a dashboard's maximum over breakers is the worst. Sampled
        /// now too. Held weakly: a breaker the service drops is no longer published.
        public func track(_ breaker: CircuitBreaker) {
            let gauge = Gauge(
                label: "\(labelPrefix)_circuit_breaker_state", dimensions: [("breaker", breaker.name)], factory: factory
            )
            gauge.record(Self.gaugeValue(of: breaker.state))
            breakers.withLock { $0.append(TrackedBreaker(breaker: breaker, gauge: gauge)) }
        }

        private static func gaugeValue(of state: CircuitBreaker.State) -> Int {
            switch state {
            case .closed: 0
            case .halfOpen: 1
            case .open: 2
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
