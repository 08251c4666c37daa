import Petal
import Testing

/// The circuit breaker under a request's deadline: a call Petal refused for the deadline never
/// reached the backend, and counts as nothing; a call the deadline ended while it ran does.
@Suite("Circuit breaker: deadlines")
struct CircuitBreakerDeadlineTests {
    @Test("a call asked for after the deadline is refused with exceededError, not run, and not counted")
    func refusedBeforeTheBreaker() {
        let breaker = CircuitBreaker(name: "deadline passed", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let runs = Counter()
        let call = Deadline.withValue(deadline) { breaker.run(counted(runs, returning: 1)) }
        #expect(isExceeded(call, by: deadline))
        #expect(runs.value == 0)
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("a call that a limit inside refused for the deadline is not counted")
    func refusedInside() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "refused inside", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let limit = ConcurrencyLimit(maximum: 4)
        let deadline = Deadline(after: .milliseconds(10), clock: clock)
        let runs = Counter()
        let call = Deadline.withValue(deadline) {
            breaker.run {
                clock.advance(by: .milliseconds(10))  // the deadline passes while the call starts
                return limit.run(counted(runs, returning: 1))
            }
        }
        #expect(isExceeded(call, by: deadline))
        #expect(runs.value == 0)
        #expect(breaker.state == .closed)
    }

    @Test("a call the request's own timeout ends while it runs counts as a failure")
    func endedByTheDeadline() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "timed out", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let deadline = Deadline(after: .milliseconds(10), clock: clock)
        let promise = Promise<Int>()
        let call = Deadline.withValue(deadline) { breaker.run { promise.future } }
        clock.advance(by: .milliseconds(10))
        promise.reject(with: deadline.exceededError)
        #expect(isExceeded(call, by: deadline))
        #expect(breaker.state == .open)
    }
}
