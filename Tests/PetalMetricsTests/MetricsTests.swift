#if Metrics
    import CoreMetrics
    import Dispatch
    import MetricsTestKit
    @testable import Petal
    import PetalMetrics
    import Synchronization
    import Testing

    /// A job whose repeated start is reported.
    private final class StartedTwice: Job<Void, Int>, @unchecked Sendable {}

    private struct Failure: Error {}

    /// Raises reports of every kind: two of each, three repeated resolutions.
    private func raiseEveryKindTwice() {
        for _ in 0..<2 {
            let now = ContinuousClock.now
            PetalDiagnostics.reportLateTimer(deadline: now, ranAt: now + .seconds(1))
            let job = StartedTwice()
            _ = job.begin()
            _ = job.begin()
            _ = Promise<Int>()
            _ = Future<Int>.rejected(with: Failure())
            _ = Future<Int>.retrying(RetryPolicy(attempts: 1, multiplier: .nan)) { .fulfilled(with: 1) }
            let breaker = CircuitBreaker(name: "metrics", policy: CircuitBreakerPolicy(minimumCalls: 1))
            _ = breaker.run { Future<Int>.rejected(with: Failure()) }
        }
        let promise = Promise<Int>()
        for value in 0..<4 { promise.fulfil(with: value) }
    }

    /// The total a kind's counter has been moved by (0 if it was never moved).
    private func total(_ metrics: TestMetrics, _ kind: PetalDiagnostic.Kind) -> Int64 {
        (try? metrics.expectCounter("petal_diagnostics_total", [("kind", kind.rawValue)]))?.totalValue ?? 0
    }

    /// The last value a gauge was set to.
    private func gauge(_ metrics: TestMetrics, _ label: String) -> Int {
        Int((try? metrics.expectGauge(label))?.lastValue ?? -1)
    }

    /// Every kind's counter moves by exactly what Petal counted, once, and only by what came
    /// after the metrics were made.
    private func checkCountersFollowTheCounts() {
        // Counted before: not published.
        _ = Promise<Int>()
        let metrics = TestMetrics()
        let published = PetalMetrics(factory: metrics)
        let before = PetalDiagnostic.Kind.allCases.map { PetalDiagnostics.count(of: $0) }
        raiseEveryKindTwice()
        published.update()
        for (index, kind) in PetalDiagnostic.Kind.allCases.enumerated() {
            let counted = Int64(PetalDiagnostics.count(of: kind) - before[index])
            precondition(counted >= 2, "\(kind): only \(counted) raised")
            precondition(total(metrics, kind) == counted, "\(kind): \(total(metrics, kind)), counted \(counted)")
        }
        // A sample with nothing new moves nothing.
        published.update()
        for kind in PetalDiagnostic.Kind.allCases {
            let counter = try? metrics.expectCounter("petal_diagnostics_total", [("kind", kind.rawValue)])
            precondition(counter?.values.count == 1, "\(kind) moved again: \(counter?.values ?? [])")
        }
        precondition(gauge(metrics, "petal_pending_deadlines") == 0)
        precondition(gauge(metrics, "petal_parked_waits") == 0)
    }

    /// A future handed to one waiter, who takes it: once the wait returns, only the test's own
    /// references keep the future alive.
    ///
    /// `@unchecked Sendable`: `future` is only read and cleared with `lock` held.
    private final class Handoff: @unchecked Sendable {
        private let lock = Mutex(())
        private var future: Future<Int>?

        init(_ future: Future<Int>) { self.future = future }

        private func take() -> Future<Int> {
            lock.withLock { _ in
                defer { future = nil }
                return future!
            }
        }

        /// Blocks until the future is resolved, then drops it.
        func waitForValue() { _ = take().wait() }

        /// Suspends until the future is resolved, then drops it.
        func awaitValue() async { _ = try? await take().value }
    }

    /// The gauges follow pending deadlines, open cancellation records and parked threads, up and
    /// back down.
    private func checkGaugesFollowPendingWork() async {
        let metrics = TestMetrics()
        let published = PetalMetrics(labelPrefix: "app_petal", factory: metrics)
        published.update()
        let records = gauge(metrics, "app_petal_open_cancellation_records")
        let count = 40
        var promises = (0..<count).map { _ in Promise<Int>() }
        var timeouts = promises.map { $0.future.timeout(after: .seconds(3_600)) }
        for promise in promises { promise.cancelWhenRequested {} }
        // Three threads blocked in wait(), two tasks suspended in await.
        let waiters = DispatchGroup()
        let waiting = 5
        for (index, promise) in promises.prefix(waiting).enumerated() {
            // Handed over, not captured: a closure's context (a dispatch block's, a task's) is
            // freed after the group is left, and a future it still held would keep its record
            // open past the last count below.
            let handoff = Handoff(promise.future)
            if index < 3 {
                DispatchQueue.global().async(group: waiters) { handoff.waitForValue() }
            } else {
                waiters.enter()
                Task {
                    await handoff.awaitValue()
                    waiters.leave()
                }
            }
        }
        // The waits park in their own time: watch the count, not the clock.
        while PetalDiagnostics.parkedWaitCount < waiting { await Task.yield() }
        published.update()
        precondition(gauge(metrics, "app_petal_pending_deadlines") == count)
        precondition(gauge(metrics, "app_petal_parked_waits") == waiting)
        let open = gauge(metrics, "app_petal_open_cancellation_records")
        precondition(open >= records + count, "records open: \(open), before \(records)")

        for (index, promise) in promises.enumerated() { promise.fulfil(with: index) }
        await withCheckedContinuation { done in waiters.notify(queue: .global()) { done.resume() } }
        promises = []
        timeouts = []
        _ = timeouts
        published.update()
        precondition(gauge(metrics, "app_petal_pending_deadlines") == 0)
        precondition(gauge(metrics, "app_petal_parked_waits") == 0)
        precondition(
            gauge(metrics, "app_petal_open_cancellation_records") == records,
            "records open: \(gauge(metrics, "app_petal_open_cancellation_records")), before \(records)")
    }

    /// Threads that sample while others report: every report is published exactly once.
    private func checkConcurrentSamplesPublishEachReportOnce() {
        let metrics = TestMetrics()
        let published = PetalMetrics(factory: metrics)
        let reporters = 4
        let rounds = 2_000
        DispatchQueue.concurrentPerform(iterations: reporters * 2) { index in
            if index < reporters {
                for round in 0..<rounds {
                    let promise = Promise<Int>()
                    promise.fulfil(with: round)
                    promise.fulfil(with: round)
                }
            } else {
                for _ in 0..<rounds / 10 { published.update() }
            }
        }
        published.update()
        precondition(total(metrics, .repeatedResolution) == Int64(reporters * rounds))
    }

    /// `run(every:)` samples until its task is cancelled, then once more.
    private func checkRunPublishesUpToTheEnd() async {
        let metrics = TestMetrics()
        let published = PetalMetrics(factory: metrics)
        let running = Task { await published.run(every: .seconds(3_600)) }
        let promise = Promise<Int>()
        promise.fulfil(with: 1)
        promise.fulfil(with: 2)
        running.cancel()
        await running.value
        precondition(total(metrics, .repeatedResolution) == 1)
    }

    /// A tracked breaker's gauge: its state at each sample, 0 closed, 1 half-open, 2 open.
    private func checkBreakerGaugeFollowsItsState() {
        let metrics = TestMetrics()
        let published = PetalMetrics(factory: metrics)
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(
            name: "inventory",
            policy: CircuitBreakerPolicy(minimumCalls: 1, openDuration: .seconds(1), trialCalls: 1), clock: clock)
        published.track(breaker)
        func state() -> Int {
            Int((try? metrics.expectGauge("petal_circuit_breaker_state", [("breaker", "inventory")]))?.lastValue ?? -1)
        }
        precondition(state() == 0, "closed: \(state())")
        _ = breaker.run { Future<Int>.rejected(with: Failure()) }.peek()
        precondition(state() == 0, "moved before a sample")
        published.update()
        precondition(state() == 2, "open: \(state())")
        clock.advance(by: .seconds(1))
        let trial = Promise<Int>()
        _ = breaker.run { trial.future }
        published.update()
        precondition(state() == 1, "half-open: \(state())")
        trial.fulfil(with: 1)
        published.update()
        precondition(state() == 0, "closed again: \(state())")
    }

    @Suite("PetalMetrics: diagnostics and pending work to swift-metrics")
    struct MetricsTests {
        @Test("a tracked circuit breaker's gauge is its state at each sample")
        func breakerGauge() async {
            await #expect(processExitsWith: .success) { checkBreakerGaugeFollowsItsState() }
        }

        @Test("each kind's counter moves by exactly what was reported after the metrics were made")
        func countersFollowTheCounts() async {
            await #expect(processExitsWith: .success) { checkCountersFollowTheCounts() }
        }

        @Test("the gauges follow armed deadlines, parked waits and open cancellation records up and down")
        func gaugesFollowPendingWork() async {
            await #expect(processExitsWith: .success) { await checkGaugesFollowPendingWork() }
        }

        @Test("samples taken while 4 threads report publish each report exactly once")
        func concurrentSamples() async {
            await #expect(processExitsWith: .success) { checkConcurrentSamplesPublishEachReportOnce() }
        }

        @Test("run(every:) samples until cancelled, then once more")
        func runPublishesUpToTheEnd() async {
            await #expect(processExitsWith: .success) { await checkRunPublishesUpToTheEnd() }
        }
    }
#endif
