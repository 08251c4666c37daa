import Foundation
import Testing

@testable import Petal

/// A latency percentile: what it reads from the samples, its floor, ceiling and window, its
/// hostile values, and many threads recording at once.
@Suite("Resilience: latency percentile")
struct LatencyPercentileTests {
    /// `latencies` with one sample of each whole number of microseconds in `range`.
    private func record(_ range: ClosedRange<Int>, into latencies: LatencyPercentile) {
        for microseconds in range { latencies.record(.microseconds(microseconds)) }
    }

    @Test("the delay is the percentile of the samples, read within 6.25% above it")
    func readsThePercentile() {
        for (percentile, expected) in [(0.95, 9_500), (0.5, 5_000), (0.99, 9_900), (0.999, 9_990)] {
            let latencies = LatencyPercentile(
                percentile, floor: .microseconds(1), ceiling: .seconds(1), clock: .manual())
            record(1...10_000, into: latencies)
            let delay = latencies.refresh()
            #expect(delay >= .microseconds(expected), "\(percentile)")
            #expect(delay <= .microseconds(expected + expected / 16), "\(percentile)")
            #expect(latencies.delay == delay)
            #expect(latencies.samples == 10_000)
        }
    }

    @Test("every value below 32 µs is read exactly, and each bucket's bound is within 6.25% of the values in it")
    func bucketPrecision() {
        for value in [1, 7, 31, 32, 33, 63, 64, 1_000, 4_095, 4_096, 999_999] {
            let latencies = LatencyPercentile(
                0.5, floor: .zero, ceiling: .seconds(1), minimumSamples: 1, clock: .manual())
            latencies.record(.microseconds(value))
            let read = latencies.refresh()
            #expect(read >= .microseconds(value), "\(value)")
            #expect(read <= .microseconds(value < 32 ? value : value + value / 16), "\(value)")
        }
    }

    @Test("the ceiling until minimumSamples are counted; the floor and ceiling bound the percentile")
    func floorAndCeiling() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(
            0.9, floor: .milliseconds(2), ceiling: .milliseconds(15), minimumSamples: 64, clock: clock)
        #expect(latencies.delay == .milliseconds(15))
        for _ in 0..<63 { latencies.record(.milliseconds(5)) }
        #expect(latencies.refresh() == .milliseconds(15))
        latencies.record(.milliseconds(5))
        let fiveish = latencies.refresh()
        #expect(fiveish >= .milliseconds(5) && fiveish < .microseconds(5_320))
        // Far below the floor: the floor. A whole window later the old samples are gone.
        clock.advance(by: .seconds(2))
        for _ in 0..<100 { latencies.record(.microseconds(10)) }
        #expect(latencies.refresh() == .milliseconds(2))
        // Far above the ceiling (and negative ones, counted as zero, below it): the ceiling.
        clock.advance(by: .seconds(2))
        latencies.refresh()
        for _ in 0..<10 { latencies.record(.milliseconds(-3)) }
        for _ in 0..<90 { latencies.record(.seconds(30)) }
        #expect(latencies.refresh() == .milliseconds(15))
    }

    @Test("samples are forgotten in halves of the window: a slow spell stops counting a window after it")
    func window() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(
            0.95, floor: .zero, ceiling: .milliseconds(100), window: .seconds(2), clock: clock)
        for _ in 0..<1_000 { latencies.record(.milliseconds(1)) }
        #expect(latencies.refresh() < .microseconds(1_070))
        // Half a window later, a slow spell: the two halves together read slow.
        clock.advance(by: .seconds(1))
        latencies.refresh()
        for _ in 0..<1_000 { latencies.record(.milliseconds(10)) }
        #expect(latencies.refresh() >= .milliseconds(10))
        // Another half: the fast half is forgotten, the slow one still counts.
        clock.advance(by: .seconds(1))
        latencies.refresh()
        for _ in 0..<1_000 { latencies.record(.milliseconds(1)) }
        #expect(latencies.refresh() >= .milliseconds(10))
        #expect(latencies.samples == 2_000)
        // Another half: the slow spell is forgotten.
        clock.advance(by: .seconds(1))
        latencies.refresh()
        for _ in 0..<1_000 { latencies.record(.milliseconds(1)) }
        #expect(latencies.refresh() < .microseconds(1_070))
        // A whole window with no turn forgets both halves at once.
        clock.advance(by: .seconds(5))
        latencies.refresh()
        #expect(latencies.samples == 0)
        #expect(latencies.delay == .milliseconds(100))
    }

    @Test("hostile values are adjusted and each is reported once")
    func hostileValues() {
        let start = adjustedArguments.events.count
        let latencies = LatencyPercentile(
            .nan, floor: .milliseconds(-4), ceiling: .seconds(-41), window: .zero, minimumSamples: -7, clock: .manual())
        #expect(latencies.percentile == 0.999)
        #expect(latencies.floor == .zero && latencies.ceiling == .zero)
        #expect(latencies.window == .milliseconds(10))
        #expect(latencies.minimumSamples == 1)
        for (parameter, given) in [
            ("LatencyPercentile.percentile", "nan"), ("LatencyPercentile.floor", "-0.004"),
            ("LatencyPercentile.ceiling", "-41"), ("LatencyPercentile.window", "0"),
            ("LatencyPercentile.minimumSamples", "-7"),
        ] {
            #expect(adjustmentReported(parameter, given: given, since: start), "\(parameter)")
        }
        latencies.record(.milliseconds(3))
        #expect(latencies.refresh() == .zero)
        let low = LatencyPercentile(0.1, floor: .seconds(43), ceiling: .seconds(1), clock: .manual())
        #expect(low.percentile == 0.5 && low.ceiling == .seconds(43) && low.floor == .seconds(43))
        #expect(adjustmentReported("LatencyPercentile.percentile", given: "0.1", since: start))
        #expect(adjustmentReported("LatencyPercentile.ceiling", given: "1", since: start))
        let high = LatencyPercentile(.infinity, floor: .zero, ceiling: .seconds(1) * 10_000_000_000, clock: .manual())
        #expect(high.percentile == 0.999 && high.ceiling == DeadlineClock.longestWait)
    }

    @Test("the share of calls timed follows their rate: fewer as they grow, every one when they are few")
    func shareFollowsTheRate() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(0.95, floor: .zero, ceiling: .milliseconds(15), clock: clock)
        #expect(latencies.timedShare == 1)
        // A busy half window: 100,000 calls, each timed. The next half window times one in 64.
        for _ in 0..<100_000 { latencies.record(.milliseconds(2)) }
        clock.advance(by: .seconds(1))
        latencies.refresh()
        #expect(latencies.timedShare == 64)
        #expect(!latencies.times(callBeganAt: 1) && !latencies.times(callBeganAt: 32))
        #expect(latencies.times(callBeganAt: 64) && latencies.times(callBeganAt: 128))
        // 100 samples at one in 64: about 6,400 calls, enough for one in 4 (1,600 samples).
        for _ in 0..<100 { latencies.record(.milliseconds(2)) }
        clock.advance(by: .seconds(1))
        latencies.refresh()
        #expect(latencies.timedShare == 4)
        // 10 samples at one in 4: 40 calls, each timed from now on.
        for _ in 0..<10 { latencies.record(.milliseconds(2)) }
        clock.advance(by: .seconds(1))
        latencies.refresh()
        #expect(latencies.timedShare == 1)
        #expect(latencies.times(callBeganAt: 1) && latencies.times(callBeganAt: 3))
    }

    @Test("minimumSamples above the default half window's asks a share that keeps them")
    func shareKeepsTheMinimum() {
        let clock = DeadlineClock.manual()
        let latencies = LatencyPercentile(
            0.95, floor: .zero, ceiling: .milliseconds(15), minimumSamples: 10_000, clock: clock)
        for _ in 0..<100_000 { latencies.record(.milliseconds(2)) }
        clock.advance(by: .seconds(1))
        latencies.refresh()
        // 100,000 calls a half window leave 10,000 samples at one in 8, not at one in 16.
        #expect(latencies.timedShare == 8)
    }

    @Test("8 threads record 20,000 samples each: every one is counted, and the delay is one of theirs")
    func manyThreads() {
        let latencies = LatencyPercentile(0.95, floor: .zero, ceiling: .milliseconds(50), clock: .manual())
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<20_000 {
                latencies.record(.microseconds(1_000 + thread * 1_000 + index % 7))
                if index % 1_000 == 0 { _ = latencies.delay }
            }
        }
        #expect(latencies.samples == 160_000)
        // The 95th percentile of eight equal groups at 1 ... 8 ms is in the slowest group.
        let delay = latencies.refresh()
        #expect(delay >= .milliseconds(8) && delay <= .microseconds(8_506))
    }
}
