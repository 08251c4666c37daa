import Petal
import Testing

/// `duration` in seconds, without trapping however far it is (`components` traps past
/// `Int64.max` seconds).
private func seconds(_ duration: Duration) -> Double {
    Double(duration.attoseconds) * 1e-18
}

/// A policy of hostile values throughout, from `generator`.
private func hostilePolicy(using generator: inout SeededGenerator) -> RetryPolicy {
    RetryPolicy(
        attempts: Int(truncatingIfNeeded: generator.next()),
        initialDelay: HostileValues.duration(using: &generator),
        multiplier: HostileValues.double(using: &generator),
        maximumDelay: HostileValues.duration(using: &generator),
        jitter: HostileValues.double(using: &generator))
}

/// An attempt number: small ones mostly, and the extremes.
private func attempt(using generator: inout SeededGenerator) -> Int {
    switch generator.next() % 4 {
    case 0: return [Int.min, -1, 0, 1, 2, 3, 64, 1_100, Int.max][Int(generator.next() % 9)]
    case 1: return Int(truncatingIfNeeded: generator.next())
    default: return Int(generator.next() % 40)
    }
}

@Suite("Jobs: retry policy properties")
struct RetryPolicyPropertyTests {
    /// The documented bounds, for any policy, attempt and random pick.
    @Test("every wait is within the documented bounds, for every policy, attempt and random pick")
    func waitsStayInBounds() {
        var generator = SeededGenerator(seed: 0x5EED_0022)
        for _ in 0..<200_000 {
            let policy = hostilePolicy(using: &generator)
            let number = attempt(using: &generator)
            let random = HostileValues.random(using: &generator)
            let wait = policy.delay(beforeAttempt: number, random: random)
            let noJitter = policy.delay(beforeAttempt: number, random: 0)

            let cap = min(max(policy.maximumDelay, .zero), DeadlineClock.longestWait)
            let jitter = policy.jitter.isNaN ? 0 : min(max(policy.jitter, 0), 1)
            // Seconds as a Double round: a relative slack for the jitter's lower bound.
            let slack = 1e-9 + seconds(noJitter) * 1e-15
            #expect(wait >= .zero, "\(policy) attempt \(number) random \(random)")
            #expect(wait <= cap, "\(policy) attempt \(number) random \(random)")
            #expect(wait <= noJitter, "\(policy) attempt \(number) random \(random)")
            #expect(
                seconds(wait) >= seconds(noJitter) * (1 - jitter) - slack,
                "\(policy) attempt \(number) random \(random)")
            if number < 2 { #expect(wait == .zero) }
        }
    }

    @Test("with a multiplier of 1 or more, waits never shrink from one attempt to the next")
    func growthIsMonotone() {
        var generator = SeededGenerator(seed: 0x5EED_0023)
        for _ in 0..<20_000 {
            var policy = hostilePolicy(using: &generator)
            policy.multiplier = 1 + abs(HostileValues.double(using: &generator))
            if policy.multiplier.isNaN { policy.multiplier = .infinity }
            var previous = Duration.zero
            for number in 2...40 {
                let wait = policy.delay(beforeAttempt: number, random: 0)
                #expect(wait >= previous - .nanoseconds(1), "\(policy) attempt \(number)")
                previous = wait
            }
        }
    }

    @Test("the wait is the capped growth: initial × multiplier^(attempt − 2), at most the cap, for sane values")
    func saneValuesFollowTheFormula() {
        var generator = SeededGenerator(seed: 0x5EED_0024)
        for _ in 0..<20_000 {
            let initial = Double(generator.next() % 10_000) / 1_000
            let cap = Double(generator.next() % 100_000) / 1_000
            let multiplier = Double(generator.next() % 4_000) / 1_000
            let number = Int(generator.next() % 30) + 2
            let policy = RetryPolicy(
                attempts: 30, initialDelay: .seconds(initial), multiplier: multiplier, maximumDelay: .seconds(cap))
            var expected = initial
            for _ in 2..<number { expected *= multiplier }
            expected = min(expected, cap)
            let wait = seconds(policy.delay(beforeAttempt: number, random: 0))
            #expect(abs(wait - expected) <= max(1e-9, expected * 1e-12), "\(policy) attempt \(number)")
        }
    }

    @Test("a late attempt number costs no more than an early one: Int.max is answered at once")
    func lateAttemptsAreConstantTime() {
        // A loop of one step per attempt never returns for Int.max with a multiplier of 1.
        let fixed = RetryPolicy(attempts: .max, initialDelay: .seconds(1), multiplier: 1, maximumDelay: .seconds(60))
        #expect(fixed.delay(beforeAttempt: .max, random: 0) == .seconds(1))
        let growing = RetryPolicy(
            attempts: .max, initialDelay: .nanoseconds(1), multiplier: 1.000_000_1, maximumDelay: .seconds(60))
        #expect(growing.delay(beforeAttempt: .max, random: 0) == .seconds(60))
    }
}
