import Petal
import Testing

/// Retrying under a request's deadline: refused once it has passed, and no wait past it.
@Suite("Deadlines: retrying")
struct DeadlineRetryingTests {
    @Test("a retry asked for after the deadline is refused before its first attempt")
    func refusedWhenPassed() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(-5), clock: clock)
        let attempts = Counter()
        let call = Deadline.withValue(deadline) {
            Future<Int>.retrying(attempts: 3, clock: clock, counted(attempts, returning: 1))
        }
        #expect(attempts.value == 0)
        #expect(isExceeded(call, by: deadline))
    }

    @Test("a backoff that would end at or after the deadline gives up at once with the last attempt's error")
    func backoffPastDeadline() {
        let clock = DeadlineClock.manual()
        let attempts = Counter()
        // Attempts at 0, 4 and 8 ms; the next would start at 12 ms, past the deadline at 10.
        let call = Deadline.withValue(Deadline(after: .milliseconds(10), clock: clock)) {
            Future<Int>.retrying(attempts: 5, delay: .milliseconds(4), clock: clock, failing(attempts))
        }
        clock.advance(by: .milliseconds(8))
        #expect(attempts.value == 3)
        #expect(call.peek()?.error as? TestError == TestError(3))
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a backoff ending exactly at the deadline gives up too")
    func backoffEndingAtDeadline() {
        let clock = DeadlineClock.manual()
        let attempts = Counter()
        let call = Deadline.withValue(Deadline(after: .milliseconds(4), clock: clock)) {
            Future<Int>.retrying(attempts: 5, delay: .milliseconds(4), clock: clock, failing(attempts))
        }
        #expect(attempts.value == 1)
        #expect(call.peek()?.error as? TestError == TestError(1))
    }

    @Test("a later attempt, started from the timer, runs with the deadline bound where the retry was made")
    func carriedIntoLaterAttempt() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let seen = Recorder<ContinuousClock.Instant?>()
        let call = Deadline.withValue(deadline) {
            Future<Int>.retrying(attempts: 2, delay: .milliseconds(5), clock: clock) {
                seen.record(Deadline.current?.instant)
                return seen.events.count < 2 ? .rejected(with: TestError()) : .fulfilled(with: 2)
            }
        }
        #expect(Deadline.current == nil)
        clock.advance(by: .milliseconds(5))
        #expect(seen.events == [deadline.instant, deadline.instant])
        #expect(call.peek()?.value == 2)
    }

    @Test("a deadline of another clock is ignored")
    func otherClockIgnored() {
        let requestClock = DeadlineClock.manual()
        let clock = DeadlineClock.manual()
        let attempts = Counter()
        let call = Deadline.withValue(Deadline(after: .milliseconds(-1), clock: requestClock)) {
            Future<Int>.retrying(attempts: 3, delay: .milliseconds(5), clock: clock, failing(attempts))
        }
        clock.advance(by: .milliseconds(10))
        #expect(attempts.value == 3)
        #expect(call.peek()?.error as? TestError == TestError(3))
    }
}
