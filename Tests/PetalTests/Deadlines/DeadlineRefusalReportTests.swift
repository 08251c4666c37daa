import Petal
import Testing

private enum DeadlineRefusedTag {}

/// Work refused because the request's deadline had passed is not reported as a failure nobody
/// observed when its future is dropped: the request decided its time was over.
@Suite("Deadlines: refusals are not unobserved failures")
struct DeadlineRefusalReportTests {
    @Test("refused hedges, retries, admissions and starts dropped unobserved report nothing")
    func refusalsAreQuiet() {
        _ = probeDiagnostics
        let runs = Counter()
        dropRefusals(counting: runs)
        #expect(runs.value == 0)
        #expect(unobservedFailures(of: Probe<DeadlineRefusedTag>.self).isEmpty)
    }
}

/// Asks for work of every kind that refuses under a deadline already passed, and drops each
/// future without a look (reading a failure, by `peek` or a callback, observes it). Not inlined,
/// so that every future is freed, and any report made, when it returns: inlined, an optimised
/// build may free them later.
@inline(never)
private func dropRefusals(counting runs: Counter) {
    let clock = DeadlineClock.manual()
    let limit = ConcurrencyLimit(maximum: 1)
    Deadline.withValue(Deadline(after: .zero, clock: clock)) {
        let body: @Sendable () -> Future<Probe<DeadlineRefusedTag>> = {
            runs.increment()
            return .fulfilled(with: Probe())
        }
        _ = Future.hedging(HedgingPolicy(copies: 2, delay: .seconds(1)), clock: clock, body)
        _ = Future.retrying(RetryPolicy(attempts: 3), clock: clock, body)
        _ = limit.run(body)
        _ = Future.startFollowing(executing: body)
    }
}
