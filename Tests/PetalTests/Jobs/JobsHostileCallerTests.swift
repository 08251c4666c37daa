import Petal
import Testing

/// A retry policy as configuration might hold it, and what the retrying must still do with it.
struct HostilePolicy: Sendable, CustomTestStringConvertible {
    let name: String
    let policy: RetryPolicy
    /// The parameter reported as adjusted, and the start of the text of the value given.
    let reported: (parameter: String, given: String)

    var testDescription: String { name }

    static let all: [HostilePolicy] = [
        // The reproducers: these crashed the timer thread (`Duration.seconds(.nan)`).
        HostilePolicy(
            name: "multiplier .infinity from a zero wait",
            policy: RetryPolicy(
                attempts: 3, initialDelay: .zero, multiplier: .infinity, maximumDelay: .milliseconds(2)),
            reported: ("", "")),
        HostilePolicy(
            name: "multiplier .nan", policy: RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), multiplier: .nan),
            reported: ("RetryPolicy.multiplier", "nan")),
        HostilePolicy(
            name: "jitter .nan", policy: RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), jitter: .nan),
            reported: ("RetryPolicy.jitter", "nan")),
        HostilePolicy(
            name: "multiplier -.infinity",
            policy: RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), multiplier: -.infinity),
            reported: ("RetryPolicy.multiplier", "-inf")),
        HostilePolicy(
            name: "jitter .infinity",
            policy: RetryPolicy(attempts: 3, initialDelay: .milliseconds(1), jitter: .infinity),
            reported: ("RetryPolicy.jitter", "inf")),
        HostilePolicy(
            name: "negative waits",
            policy: RetryPolicy(attempts: 3, initialDelay: .seconds(-5), maximumDelay: .seconds(-1)),
            reported: ("RetryPolicy.initialDelay", "-5")),
        HostilePolicy(
            name: "a cap past what Duration.components can hold",
            policy: RetryPolicy(
                attempts: 3, initialDelay: .zero, multiplier: 1e300, maximumDelay: Duration(attoseconds: .max)),
            reported: ("RetryPolicy.maximumDelay", "1.7")),
    ]
}

@Suite("Jobs: hostile callers")
struct JobsHostileCallerTests {
    @Test(
        "a policy with a value out of range retries on the real timer thread, and the process lives",
        arguments: HostilePolicy.all)
    func hostilePolicyOnTheTimerThread(_ hostile: HostilePolicy) {
        let start = adjustedArguments.events.count
        let runs = Counter()
        let future = Future<Int>.retrying(hostile.policy) {
            runs.increment()
            return runs.value == 1 ? .rejected(with: TestError(1)) : .fulfilled(with: runs.value)
        }
        // The second attempt runs after the policy's wait, from the timer thread: a wait on the
        // outcome, not a sleep.
        #expect(describe(future.wait()) == "fulfilled(2)")
        #expect(runs.value == 2)
        if !hostile.reported.parameter.isEmpty {
            #expect(adjustmentReported(hostile.reported.parameter, given: hostile.reported.given, since: start))
        }
    }

    @Test("attempts of zero or less run the body exactly once, and are reported", arguments: [0, -3, Int.min])
    func attemptsBelowOne(_ attempts: Int) {
        let start = adjustedArguments.events.count
        let runs = Counter()
        let future = Future<Int>.retrying(RetryPolicy(attempts: attempts)) {
            runs.increment()
            return .rejected(with: TestError(runs.value))
        }
        #expect(describe(future.peek()) == "rejected(\(TestError(1)))")
        #expect(runs.value == 1)
        #expect(adjustmentReported("RetryPolicy.attempts", given: "\(attempts)", since: start))
    }

    @Test("a wait past a century is kept to DeadlineClock.longestWait: due then, and not a moment before")
    func waitPastACentury() {
        let start = adjustedArguments.events.count
        let clock = DeadlineClock.manual()
        let runs = Counter()
        let policy = RetryPolicy(attempts: 2, initialDelay: .seconds(Int64.max))
        let future = Future<Int>.retrying(policy, clock: clock) {
            runs.increment()
            return runs.value == 1 ? .rejected(with: TestError(1)) : .fulfilled(with: 2)
        }
        #expect(adjustmentReported("RetryPolicy.initialDelay", given: "9.2", since: start))
        #expect(clock.pendingDeadlineCount == 1)
        clock.advance(by: DeadlineClock.longestWait - .seconds(1))
        #expect(future.peek() == nil)
        clock.advance(by: .seconds(1))
        #expect(describe(future.peek()) == "fulfilled(2)")
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a predicate that cancels the retrying future it decides for: cancelled, and no further attempt")
    func predicateCancelsItsOwnRetrying() {
        let runs = Counter()
        let retrying = Recorder<Future<Int>>()
        let policy = RetryPolicy(
            attempts: 5,
            retryingWhen: { _ in
                retrying.events.first?.requestCancellation()
                return true
            })
        let first = Promise<Int>()
        let future = Future<Int>.retrying(policy) {
            runs.increment()
            return runs.value == 1 ? first.future : .fulfilled(with: runs.value)
        }
        retrying.record(future)
        first.reject(with: TestError(1))
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(runs.value == 1)
    }

    @Test("an empty job group is fulfilled with no values at once")
    func emptyJobGroup() {
        let jobs: [Job<Int, Int>] = []
        #expect(describe(Future.start(running: jobs, with: 1).peek()) == "fulfilled([])")
    }
}
