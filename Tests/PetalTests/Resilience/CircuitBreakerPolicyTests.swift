import Petal
import Testing

/// A circuit breaker's policy: any value accepted, adjusted as documented, and reported once.
@Suite("Circuit breaker: policy values")
struct CircuitBreakerPolicyTests {
    @Test("hostile values are adjusted, each reported once, and the breaker works with them")
    func hostileValues() {
        let start = adjustedArguments.events.count
        let policy = CircuitBreakerPolicy(
            failureRateThreshold: .nan, window: .calls(0), minimumCalls: -3, slowCallDuration: .seconds(-1),
            slowCallRateThreshold: 7, openDuration: .seconds(-5), trialCalls: 0)
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "hostile", policy: policy, clock: clock)
        for (parameter, given) in [
            ("CircuitBreakerPolicy.failureRateThreshold", "nan"), ("CircuitBreakerPolicy.window", "calls(0)"),
            ("CircuitBreakerPolicy.minimumCalls", "-3"), ("CircuitBreakerPolicy.slowCallDuration", "-1"),
            ("CircuitBreakerPolicy.slowCallRateThreshold", "7"), ("CircuitBreakerPolicy.openDuration", "-5"),
            ("CircuitBreakerPolicy.trialCalls", "0"),
        ] {
            #expect(adjustmentReported(parameter, given: given, since: start), "\(parameter)")
        }
        // Window of 1 call, minimum 1, rate 0.5: one failure opens it; a millisecond later one
        // trial (trialCalls 1) closes it.
        breaker.call(.failure)
        #expect(breaker.state == .open)
        clock.advance(by: .milliseconds(1))
        breaker.call(.success)
        #expect(breaker.state == .closed)
    }

    @Test("a zero time window, negative rates and too many buckets or trials are adjusted and reported")
    func moreHostileValues() {
        let start = adjustedArguments.events.count
        let policy = CircuitBreakerPolicy(
            failureRateThreshold: -0.5, window: .time(.zero, buckets: 1_000), openDuration: .seconds(1) * 1_000_000_000,
            trialCalls: 1 << 20)
        _ = CircuitBreaker(name: "hostile too", policy: policy, clock: .manual())
        #expect(adjustmentReported("CircuitBreakerPolicy.failureRateThreshold", given: "-0.5", since: start))
        #expect(adjustmentReported("CircuitBreakerPolicy.window", given: "time(0", since: start))
        #expect(adjustmentReported("CircuitBreakerPolicy.openDuration", given: "1000000000", since: start))
        #expect(adjustmentReported("CircuitBreakerPolicy.trialCalls", given: "1048576", since: start))
    }

    @Test("values in range are not reported, and a policy is a Hashable value")
    func valuesInRange() {
        let start = adjustedArguments.events.count
        // Values no other test gives a breaker's policy, so that another test's reports cannot be
        // taken for these. Only the policy's own parameters are looked at: other tests, running
        // meanwhile, report values such as Int.max, whose digits hold "37" (a release run under
        // ThreadSanitizer failed on one).
        let policy = CircuitBreakerPolicy(window: .time(.seconds(37), buckets: 37), trialCalls: 37)
        _ = CircuitBreaker(name: "in range", policy: policy, clock: .manual())
        #expect(
            !adjustedArguments.events.dropFirst(start).contains {
                $0.parameter.hasPrefix("CircuitBreakerPolicy.") && $0.given?.contains("37") == true
            })
        #expect(policy == CircuitBreakerPolicy(window: .time(.seconds(37), buckets: 37), trialCalls: 37))
        #expect(policy != CircuitBreakerPolicy(window: .time(.seconds(37)), trialCalls: 37))
    }
}
