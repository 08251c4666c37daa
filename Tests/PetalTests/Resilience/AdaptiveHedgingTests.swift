import Petal
import Testing

/// Hedging at a latency percentile: each call waits the delay read when it begins, and records
/// its own latency (exactly, or as a bound when it cannot know it).
@Suite("Resilience: adaptive hedging")
struct AdaptiveHedgingTests {
    @Test("a call waits the delay its percentile reads as it begins, not the policy's fixed one")
    func usesThePercentile() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(40), clock: clock)
        let policy = HedgingPolicy(copies: 2, delay: latencies)
        #expect(policy.adaptiveDelay === latencies)
        #expect(policy.delay == .milliseconds(40))
        // Before the samples: the ceiling.
        let early = Copies()
        let first = Future.hedging(policy, clock: clock) { early.start() }
        clock.advance(by: .microseconds(39_999))
        #expect(early.count == 1)
        clock.advance(by: .microseconds(1))
        #expect(early.count == 2)
        _ = early[1].fulfil(with: 1)
        #expect(describe(first.peek()) == "fulfilled(1)")
        // 200 latencies of 3 ms: the 95th percentile is 3 ms (within its bucket).
        for _ in 0..<200 { latencies.record(.milliseconds(3)) }
        let delay = latencies.refresh()
        #expect(delay >= .milliseconds(3) && delay < .microseconds(3_200))
        let later = Copies()
        let second = Future.hedging(policy, clock: clock) { later.start() }
        clock.advance(by: delay - .microseconds(1))
        #expect(later.count == 1)
        clock.advance(by: .microseconds(1))
        #expect(later.count == 2)
        _ = later[0].fulfil(with: 2)
        #expect(describe(second.peek()) == "fulfilled(2)")
        #expect(later.stops == [0, 1])
    }

    @Test("calls record their latency: a fulfilled first copy exactly, a copy's win as at least the call's time")
    func callsRecordTheirLatency() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(
            0.5, floor: .zero, ceiling: .milliseconds(40), minimumSamples: 1, clock: clock)
        let policy = HedgingPolicy(copies: 2, delay: latencies)
        for _ in 0..<31 {
            let copies = Copies()
            let call = Future.hedging(policy, clock: clock) { copies.start() }
            clock.advance(by: .milliseconds(2))
            _ = copies[0].fulfil(with: 0)
            #expect(call.isResolved)
        }
        #expect(latencies.samples == 31)
        let two = latencies.refresh()
        #expect(two >= .milliseconds(2) && two < .microseconds(2_130))
        // A call that its second copy decides records the call's whole time: its first copy took
        // at least that.
        let copies = Copies()
        let call = Future.hedging(policy, clock: clock) { copies.start() }
        clock.advance(by: two)
        #expect(copies.count == 2)
        clock.advance(by: .milliseconds(5))
        _ = copies[1].fulfil(with: 1)
        #expect(call.isResolved)
        copies.cancelPending()
        #expect(latencies.samples == 32)
        // The median of 31 at 2 ms and one at 7: still 2 ms.
        #expect(latencies.refresh() == two)
    }

    @Test("a call that fails or is stopped before its delay records nothing; one stopped after it records its time")
    func failuresBeforeTheDelayTellNothing() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(0.95, floor: .zero, ceiling: .milliseconds(10), clock: clock)
        let policy = HedgingPolicy(copies: 2, delay: latencies, hedgingWhen: { _ in false })
        // Rejected after 1 ms (no hedge on a rejection): nothing recorded.
        let failing = Copies()
        let failed = Future.hedging(policy, clock: clock) { failing.start() }
        clock.advance(by: .milliseconds(1))
        _ = failing[0].reject(with: TestError(1))
        #expect(failed.isResolved)
        // Stopped by its consumer after 2 ms: nothing recorded.
        let stopping = Copies()
        let stopped = Future.hedging(policy, clock: clock) { stopping.start() }
        clock.advance(by: .milliseconds(2))
        stopped.requestCancellation()
        #expect(stopped.isResolved)
        #expect(latencies.samples == 0)
        // Stopped after 12 ms, past its 10 ms delay (both copies pending): 12 ms recorded.
        let hanging = Copies()
        let hung = Future.hedging(policy, clock: clock) { hanging.start() }
        clock.advance(by: .milliseconds(12))
        #expect(hanging.count == 2)
        hung.requestCancellation()
        #expect(hung.isResolved)
        #expect(hanging.stops == [1, 1])
        #expect(latencies.samples == 1)
    }
}
