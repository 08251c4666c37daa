import Petal
import Testing

/// Milliseconds of a duration, rounded, for exact comparisons of the schedule.
private func milliseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    return seconds * 1_000 + (attoseconds + 500_000_000_000_000) / 1_000_000_000_000_000
}

/// Retries, as `policy` says, work whose run number `run` is rejected with `TestError(code(run))`;
/// returns the retrying future and the count of runs.
private func retryingRejections(
    _ policy: RetryPolicy, code: @escaping @Sendable (Int) -> Int
) -> (future: Future<Int>, runs: Counter) {
    let runs = Counter()
    let future = Future<Int>.retrying(policy) {
        runs.increment()
        return .rejected(with: TestError(code(runs.value)))
    }
    return (future, runs)
}

@Suite("Jobs: retry policies")
struct RetryPolicyTests {
    @Test("exponential backoff doubles from the initial wait and stops at the cap")
    func exponentialSchedule() {
        let policy = RetryPolicy.exponential(
            attempts: 8, initialDelay: .milliseconds(100), maximumDelay: .seconds(1), jitter: 0)
        let waits = (1...8).map { milliseconds(policy.delay(beforeAttempt: $0, random: 0.7)) }
        #expect(waits == [0, 100, 200, 400, 800, 1_000, 1_000, 1_000])
    }

    @Test("a fixed wait stays fixed, and a growth that overflows still stops at the cap")
    func fixedAndHugeGrowth() {
        let fixed = RetryPolicy(attempts: 4, initialDelay: .milliseconds(250))
        #expect((2...4).map { milliseconds(fixed.delay(beforeAttempt: $0, random: 0)) } == [250, 250, 250])
        let huge = RetryPolicy(
            attempts: 2_000, initialDelay: .seconds(1), multiplier: 1e6, maximumDelay: .seconds(30))
        #expect(milliseconds(huge.delay(beforeAttempt: 1_500, random: 0)) == 30_000)
    }

    @Test("jitter shortens each wait by at most its share, and never lengthens it")
    func jitterBounds() {
        let policy = RetryPolicy.exponential(
            attempts: 6, initialDelay: .milliseconds(100), maximumDelay: .seconds(10), jitter: 0.5)
        for attempt in 2...6 {
            let full = 100 << (attempt - 2)
            #expect(milliseconds(policy.delay(beforeAttempt: attempt, random: 0)) == full)
            #expect(milliseconds(policy.delay(beforeAttempt: attempt, random: 0.999_999)) == full / 2)
            for _ in 0..<1_000 {
                let wait = milliseconds(policy.delay(beforeAttempt: attempt, random: Double.random(in: 0..<1)))
                #expect(wait >= full / 2 && wait <= full)
            }
        }
        let full = RetryPolicy(attempts: 2, initialDelay: .seconds(1), jitter: 1)
        #expect(milliseconds(full.delay(beforeAttempt: 2, random: 0.999_999)) == 0)
        let clamped = RetryPolicy(attempts: 2, initialDelay: .seconds(1), jitter: 7)
        #expect(milliseconds(clamped.delay(beforeAttempt: 2, random: 0.25)) == 750)
    }

    @Test("a rejection the policy declines ends the retrying with that error, after exactly one run")
    func predicateDeclines() {
        let policy = RetryPolicy(attempts: 5, retryingWhen: { ($0 as? TestError)?.code != 404 })
        let (future, runs) = retryingRejections(policy) { _ in 404 }
        #expect(describe(future.peek()) == "rejected(\(TestError(404)))")
        #expect(runs.value == 1)
    }

    @Test("retryable rejections are retried until a declined one arrives")
    func predicateAccepts() {
        let policy = RetryPolicy(attempts: 10, retryingWhen: { ($0 as? TestError)?.code != 404 })
        let (future, runs) = retryingRejections(policy) { $0 < 4 ? 503 : 404 }
        #expect(describe(future.peek()) == "rejected(\(TestError(404)))")
        #expect(runs.value == 4)
    }

    @Test("fewer than one attempt counts as one")
    func atLeastOneAttempt() {
        let (future, runs) = retryingRejections(RetryPolicy(attempts: 0)) { $0 }
        #expect(describe(future.peek()) == "rejected(\(TestError(1)))")
        #expect(runs.value == 1)
    }
}
