import Petal

/// A rejection the breaker counts as a failure of the backend.
struct BackendDown: Error {}

extension CircuitBreaker {
    /// A breaker on real time whose window samples its successes once it is busy: periods of
    /// 10 ms, so that many begin while a test's calls run and the window chooses its mask once
    /// it holds a few thousand (how many depends on the machine's speed); opens at half the
    /// calls failed, and stays open a minute.
    static func sampling(named name: String) -> CircuitBreaker {
        CircuitBreaker(
            name: name,
            policy: CircuitBreakerPolicy(
                failureRateThreshold: 0.5, window: .time(.milliseconds(100), buckets: 10), minimumCalls: 100,
                slowCallDuration: .seconds(60), openDuration: .seconds(60)))
    }

    /// Runs one call that resolves at once as `outcome` says, and returns its outcome.
    @discardableResult
    func call(_ outcome: BreakerCall, runs: Counter? = nil) -> Outcome<Int>? {
        run {
            runs?.increment()
            switch outcome {
            case .success: return Future<Int>.fulfilled(with: 1)
            case .failure: return Future<Int>.rejected(with: BackendDown())
            }
        }.peek()
    }

    /// Runs calls that resolve at once, one per outcome, in order.
    func calls(_ outcomes: [BreakerCall]) {
        for outcome in outcomes { call(outcome) }
    }

    /// Runs a call that stays pending until the returned promise resolves it (nil if refused).
    func pendingCall(runs: Counter? = nil) -> (promise: Promise<Int>, future: Future<Int>) {
        let promise = Promise<Int>()
        let future = run {
            runs?.increment()
            return promise.future
        }
        return (promise, future)
    }
}

/// A call that succeeds or fails at once.
enum BreakerCall {
    case success, failure
}

/// The breaker's refusal of `outcome`, if it is one.
func refusal(_ outcome: Outcome<Int>?) -> CircuitBreakerOpenError? {
    guard case .rejected(let error)? = outcome else { return nil }
    return error as? CircuitBreakerOpenError
}

/// A policy with a count window of `calls`, that opens at `threshold` with `minimumCalls`, for
/// ten seconds, and decides with `trials` trial calls.
func breakerPolicy(
    threshold: Double = 0.5, calls: Int = 10, minimumCalls: Int = 4, trials: Int = 2
) -> CircuitBreakerPolicy {
    CircuitBreakerPolicy(
        failureRateThreshold: threshold, window: .calls(calls), minimumCalls: minimumCalls,
        openDuration: .seconds(10), trialCalls: trials)
}

/// A breaker of `breakerPolicy(minimumCalls: 1, trials:)` on `clock` that a failure opened
/// and whose open duration is over: its next call half-opens it.
func halfOpenBreaker(named name: String, trials: Int, clock: DeadlineClock) -> CircuitBreaker {
    let breaker = CircuitBreaker(name: name, policy: breakerPolicy(minimumCalls: 1, trials: trials), clock: clock)
    breaker.call(.failure)
    clock.advance(by: .seconds(10))
    return breaker
}
