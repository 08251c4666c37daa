import CPetal
import Foundation
import Testing

@testable import Petal

/// The breaker's parts: the window's buckets and the state word's moves, one at a time.
@Suite("Circuit breaker: window and word")
struct CircuitBreakerWindowTests {
    @Test("a late call of an older period leaves the newer period's bucket as it is")
    func latePeriodDropped() {
        let window = BreakerWindow(.calls(4))
        window.record(period: 9, failed: true, slow: false)  // bucket 1
        window.record(period: 5, failed: false, slow: false)  // bucket 1 too, older: out of the window
        #expect(window.totals(upTo: 9) == .init(calls: 1, failures: 1, slow: 0))
        window.record(period: 13, failed: false, slow: true)  // bucket 1, newer: starts afresh
        #expect(window.totals(upTo: 13) == .init(calls: 1, failures: 0, slow: 1))
    }

    @Test("the totals cover the last periods of the window only, from its restart on")
    func totalsCoverTheWindow() {
        let window = BreakerWindow(.time(.seconds(4), buckets: 4))
        for period in 0..<6 { window.record(period: period, failed: period % 2 == 0, slow: false) }
        #expect(window.totals(upTo: 5) == .init(calls: 4, failures: 2, slow: 0))
        #expect(window.totals(upTo: 8) == .init(calls: 1, failures: 0, slow: 0))
        window.restart(elapsed: 5_500_000_000)  // period 5: emptied, and the window starts there
        #expect(window.totals(upTo: 6) == .init())
        window.record(period: 5, failed: false, slow: false)  // counts at once, in the same slice
        window.record(period: 6, failed: true, slow: true)
        #expect(window.totals(upTo: 6) == .init(calls: 2, failures: 1, slow: 1))
    }

    @Test("a bucket saturates at 65,535 calls instead of carrying into its failures")
    func bucketSaturates() {
        let window = BreakerWindow(.calls(1))
        for _ in 0..<65_536 { window.record(period: 0, failed: false, slow: false) }
        #expect(window.totals(upTo: 0) == .init(calls: 65_535, failures: 0, slow: 0))
    }

    @Test("calls counted on 16 threads at once sum exactly over the stripes, and a restart empties every stripe")
    func stripesSumAndRestart() {
        let threads = 16
        let perThread = 2_000
        for round in 0..<20 {
            let window = BreakerWindow(.time(.seconds(1), buckets: 10))
            // Two periods: the restart empties the later one in every stripe; the earlier one
            // stays counted until the window's new start leaves it out.
            onThreads(threads) { thread in
                for call in 0..<perThread {
                    window.record(period: 3 + call % 2, failed: (thread + call) % 3 == 0, slow: call % 5 == 0)
                }
            }
            var failures = 0
            var slow = 0
            for thread in 0..<threads {
                for call in 0..<perThread {
                    failures += (thread + call) % 3 == 0 ? 1 : 0
                    slow += call % 5 == 0 ? 1 : 0
                }
            }
            #expect(
                window.totals(upTo: 4) == .init(calls: threads * perThread, failures: failures, slow: slow),
                "round \(round)")
            window.restart(elapsed: 400_000_000)  // period 4
            #expect(window.totals(upTo: 4) == .init(), "round \(round)")
            onThreads(threads) { _ in window.record(period: 4, failed: true, slow: false) }
            #expect(window.totals(upTo: 4) == .init(calls: threads, failures: threads, slow: 0), "round \(round)")
        }
    }

    @Test("successes are sampled only past twice 1,024 calls a window, one in at most 64")
    func sampleShare() {
        #expect(BreakerWindow.successMask(forCalls: 0) == 0)
        #expect(BreakerWindow.successMask(forCalls: 2_047) == 0)
        #expect(BreakerWindow.successMask(forCalls: 2_048) == 1)
        #expect(BreakerWindow.successMask(forCalls: 10_000) == 7)  // one in 8: 1,250 counted
        #expect(BreakerWindow.successMask(forCalls: 65_535) == 31)
        #expect(BreakerWindow.successMask(forCalls: 65_536) == 63)
        #expect(BreakerWindow.successMask(forCalls: .max) == 63)
    }

    @Test("a thread's sampled successes stand for those it made within a few weights, whatever the pattern of failures")
    func sampledCountFollowsTheCalls() {
        // A draw for every call as it is admitted, counted only if it succeeds (the fast path).
        for mask: UInt64 in [1, 7, 15, 63] {
            for (period, failing) in [(10, 3), (2, 1), (7, 3), (64, 20)] {
                var counted = 0
                var made = 0
                for call in 0..<6_400 {
                    let draw = SampleDraw.next()
                    guard call % period >= failing else { continue }
                    made += 1
                    counted += BreakerWindow.weight(ofDraw: draw, mask: mask)
                }
                // Within 24 weights (seen: 14 at most, 3 in 7 failing under a mask of 1); coins,
                // one per call, stray by sqrt(made / weight) weights as often as not (43 at 1).
                #expect(abs(counted - made) <= 24 * Int(mask + 1), "mask \(mask), \(failing) in \(period) fail")
            }
        }
        // Under a mask of 0 every success counts, and no draw is made.
        #expect(BreakerWindow.weightOfSuccess(mask: 0) == 1)
        #expect(BreakerWindow.weight(ofDraw: 0, mask: 7) == 8)
        #expect(BreakerWindow.weight(ofDraw: .max, mask: 7) == 0)
    }

    @Test("new threads that each make one call, one after another, are sampled as one thread's calls would be")
    func newThreadsDrawApart() {
        // A thread's first draw comes from its seed: were every new thread to start alike, each
        // would keep or skip its one call the same way (256 kept, or none). One in 8 kept: 32
        // on average. Each thread made and ended before the next, as a server that spawns a
        // thread per request does: a thread may reuse the one before it's stack and identity.
        let kept = Counter()
        for _ in 0..<256 {
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                if BreakerWindow.weight(ofDraw: SampleDraw.next(), mask: 7) != 0 { kept.increment() }
                done.signal()
            }
            thread.start()
            done.wait()
        }
        #expect((8...96).contains(kept.value))
    }

    @Test("a weighted call counts as its weight, and saturates at 65,535 calls rather than carry")
    func weightedRecord() {
        let window = BreakerWindow(.calls(1))
        window.record(period: 0, failed: false, slow: false, weight: 64)
        window.record(period: 0, failed: true, slow: false)
        #expect(window.totals(upTo: 0) == .init(calls: 65, failures: 1, slow: 0))
        for _ in 0..<1_022 { window.record(period: 0, failed: false, slow: false, weight: 64) }
        #expect(window.totals(upTo: 0) == .init(calls: 65_473, failures: 1, slow: 0))
        window.record(period: 0, failed: false, slow: false, weight: 64)  // would pass 65,535: dropped
        window.record(period: 0, failed: false, slow: false, weight: 62)  // exactly 65,535
        #expect(window.totals(upTo: 0) == .init(calls: 65_535, failures: 1, slow: 0))
        window.record(period: 1, failed: false, slow: false, weight: 16)  // a fresh start, weighted
        #expect(window.totals(upTo: 1) == .init(calls: 16, failures: 0, slow: 0))
    }

    @Test(
        "a sampling time window chooses its mask as a period begins; a count window, or a window that may not sample, never does"
    )
    func maskChosenAsPeriodsBegin() {
        let sampling = BreakerWindow(.time(.seconds(1), buckets: 10), sampling: true)
        let exact = BreakerWindow(.time(.seconds(1), buckets: 10))
        let counted = BreakerWindow(.calls(100), sampling: true)
        for window in [sampling, exact] {
            for period in 0..<10 {
                for _ in 0..<(period < 9 ? 500 : 4_000) { window.record(period: period, failed: false, slow: false) }
            }
        }
        for _ in 0..<20_000 { counted.record(period: counted.period(elapsed: 0), failed: false, slow: false) }
        // Every period began on this thread, in its stripe: the mask follows the window before it.
        #expect(sampling.successMask == 3)  // 4,500 calls in periods 0-8: one in 4
        sampling.record(period: 10, failed: false, slow: false)
        #expect(sampling.successMask == 7)  // 8,500 in periods 0-9: one in 8
        exact.record(period: 10, failed: false, slow: false)
        #expect(exact.successMask == 0)
        #expect(counted.successMask == 0)
    }

    @Test("a count window restarts in its current run of calls, without the calls before")
    func countWindowRestart() {
        let window = BreakerWindow(.calls(200))  // 64 buckets of 4 calls
        for _ in 0..<6 { window.record(period: window.period(elapsed: 0), failed: true, slow: false) }
        window.restart(elapsed: 0)
        let next = window.period(elapsed: 0)
        #expect(next == 1)
        window.record(period: next, failed: false, slow: false)
        #expect(window.totals(upTo: next) == .init(calls: 1, failures: 0, slow: 0))
    }

    @Test("a window of ten periods in a ring of sixteen buckets counts the last ten only")
    func ringLargerThanWindow() {
        let window = BreakerWindow(.time(.seconds(1), buckets: 10))
        for period in 0..<40 { window.record(period: period, failed: period >= 35, slow: false) }
        #expect(window.totals(upTo: 39) == .init(calls: 10, failures: 5, slow: 0))
        // Period 23 shares period 39's bucket: older, so out of the window and not counted.
        window.record(period: 23, failed: true, slow: false)
        #expect(window.totals(upTo: 39) == .init(calls: 10, failures: 5, slow: 0))
        #expect(window.totals(upTo: 45) == .init(calls: 4, failures: 4, slow: 0))
        #expect(window.period(elapsed: 999_999_999) == 9 && window.period(elapsed: 1_000_000_000) == 10)
    }

    @Test("a period by multiplication is the division's, at and around every boundary, and never goes back")
    func periodByMultiplication() {
        for length in [1, 2, 3, 7, 10, 4_096, 100_000_000, 1_000_000_007, Int(Int32.max)] {
            let divisor = PeriodDivisor(length)
            var last = 0
            for multiple in stride(from: 0, to: 20_000, by: 7) {
                for offset in -1...1 {
                    let value = Swift.max(0, multiple * length + offset)
                    let period = divisor.period(of: UInt64(value))
                    // Exact below 2^64 / length; past it, one more only just below a multiple.
                    if UInt64(value) < UInt64.max / UInt64(length) {
                        #expect(period == value / length, "\(value) / \(length)")
                    } else {
                        #expect(period == value / length || (period == value / length + 1 && offset == -1))
                    }
                    #expect(period >= last)
                    last = period
                }
            }
            // An hour of nanoseconds and more: the division's, or one more at most.
            for value in [3_600_000_000_000, 1 << 50, (1 << 62) - 1] {
                let period = divisor.period(of: UInt64(value))
                #expect(period - value / length == 0 || period - value / length == 1)
            }
        }
    }

    @Test("the word's moves: each only from the state and epoch it names")
    func wordMoves() {
        let closed = BreakerWord.closed
        let open = BreakerWord.tripping(closed, epoch: 0, retryTick: 100)
        #expect(open.map(BreakerWord.state) == BreakerWord.open)
        #expect(BreakerWord.tripping(closed, epoch: 1, retryTick: 100) == nil)
        guard let open else { return }
        #expect(BreakerWord.admitting(open, nowTick: 99, openTicks: 10, trialCalls: 2) == nil)
        let half = BreakerWord.admitting(open, nowTick: 100, openTicks: 10, trialCalls: 2)
        #expect(half.map(BreakerWord.admitted) == 1)
        guard let half else { return }
        let full = BreakerWord.admitting(half, nowTick: 0, openTicks: 10, trialCalls: 2)
        #expect(full.map(BreakerWord.admitted) == 2)
        guard let full else { return }
        #expect(BreakerWord.admitting(full, nowTick: 0, openTicks: 10, trialCalls: 2) == nil)
        let epoch = BreakerWord.epoch(full)
        #expect(epoch == 2)
        #expect(BreakerWord.settling(full, epoch: epoch - 1, .success, trialCalls: 2, retryTick: 0) == nil)
        #expect(
            BreakerWord.settling(full, epoch: epoch, .ignored, trialCalls: 2, retryTick: 0).map(BreakerWord.admitted)
                == 1)
        let one = BreakerWord.settling(full, epoch: epoch, .success, trialCalls: 2, retryTick: 0)
        #expect(one.map(BreakerWord.succeeded) == 1)
        guard let one else { return }
        let closedAgain = BreakerWord.settling(one, epoch: epoch, .success, trialCalls: 2, retryTick: 0)
        #expect(closedAgain.map(BreakerWord.state) == BreakerWord.closed)
        #expect(closedAgain.map(BreakerWord.epoch) == 3)
        let reopened = BreakerWord.settling(one, epoch: epoch, .failure, trialCalls: 2, retryTick: 7)
        #expect(reopened.map(BreakerWord.retryTick) == 7)
    }

    @Test("a retry tick is due across the wrap of the millisecond count, and after a long idle spell")
    func tickWraps() {
        #expect(BreakerWord.isDue(UInt32.max, now: 3, openTicks: 10))
        #expect(!BreakerWord.isDue(3, now: UInt32.max, openTicks: 10))
        #expect(BreakerWord.isDue(5, now: 5, openTicks: 10))
        #expect(!BreakerWord.isDue(15, now: 5, openTicks: 10))
        // Passed 2^31 + 10 ms ago: it looks 2^31 - 10 ms ahead, further than an open duration.
        #expect(BreakerWord.isDue(5, now: 5 &+ (1 << 31) &+ 10, openTicks: 10))
    }
}
