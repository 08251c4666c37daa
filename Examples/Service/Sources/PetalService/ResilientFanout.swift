import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// The fan-out built to outlast a backend that fails, not only one that is slow (issue 56): the
/// requests behind the service's `ConcurrencyLimit`, as ``LimitedFanout``'s; each backend call
/// hedged against slowness, as ``HedgedFanout``'s, retried against failures and sent through a
/// circuit breaker, all by one `Future.hedging` loop (`HedgingPolicy.retry` and
/// `HedgingPolicy.breaker`: the layers `retrying { hedging { breaker.run { ... } } }` cost 41%
/// more instructions a call, callgrind).
///
/// What each part answers:
/// - **the limit** (shared with `limited`: one limit guards the service; the shedder refuses
///   both routes' requests on the loop while it is full): a flood is refused with 503;
/// - **retrying**, per backend call: a call rejected with ``BackendUnavailableError`` is made
///   again, up to 3 attempts, after about 1 then 2 ms (exponential, half of each wait at
///   random, so that the calls that failed together do not return together). Short, because the
///   request's 20 ms deadline bounds them all: `retrying` gives up at once when the next wait
///   would end past the deadline, and the request's timeout ends the attempt that runs then;
/// - **hedging**, per attempt: a copy after the 95th percentile of the calls' latency (about
///   5 ms in calm, as `hedged`'s fixed delay) and a third at twice that, within a budget it
///   shares with the retries (5% extra calls, copies and retries together). Hedges
///   answer slowness only: a copy's failure is left to retrying (its backoff), not answered
///   with another copy at once;
/// - **the breaker**, per copy: every call the backend receives goes through it, copies and
///   retries included, and it counts each outcome; while it is open it refuses each at once,
///   without a call (a refusal the retry policy declines, and the request answers 503 as for the
///   backend's own failure). It counts failures, and calls given up on after running slow (a
///   hang's calls end only when the request's deadline ends them).
///
/// Without faults it behaves as `limited`: nothing fails, so nothing is retried.
struct ResilientFanout: FanoutBehindLimit {
    static let variant = Variant.resilient
    static let deadlineFromArrival = true

    /// Up to 3 attempts per call, waiting about 1 then 2 ms (each wait picked in its upper half),
    /// after the backend's failures only (a cancellation or a refusal is not retried), each
    /// retry drawn from `budget`: with the backend down, it sees at most 1.05 times its calls.
    static func retryPolicy(budget: RetryBudget) -> RetryPolicy {
        RetryPolicy.exponential(
            attempts: 3, initialDelay: .milliseconds(1), multiplier: 2, maximumDelay: .milliseconds(4), jitter: 0.5,
            budget: budget, retryingWhen: { $0 is BackendUnavailableError })
    }

    /// ``HedgedFanout``'s copies and delay, answering slowness only (a rejected copy is not
    /// answered with another copy at once, but left to the retry policy's wait), the retries of
    /// ``retryPolicy(budget:)`` and every copy through `breaker`. Copies and retries draw from
    /// the same budget.
    static func policy(budget: RetryBudget, latencies: LatencyPercentile, breaker: CircuitBreaker) -> HedgingPolicy {
        let hedged = HedgedFanout.policy(budget: budget)
        return HedgingPolicy(
            copies: hedged.copies, delay: latencies, budget: budget, retry: retryPolicy(budget: budget),
            breaker: breaker, hedgingWhen: { _ in false })
    }

    /// The backends, with this variant's counters.
    let backend: Backend
    /// Where the request is tracked while it runs, so that a graceful shutdown can stop it.
    let drain: RequestDrain
    /// The service's limit on the requests fanning out.
    let limit: ConcurrencyLimit
    /// The budget of the extra calls, retries and copies alike, shared by every request of
    /// this variant: 5% of the calls, as `hedged`'s budget of copies.
    let budget = RetryBudget(share: 0.05, burst: 64)

    /// The hedge delay: the 95th percentile of the last 2 seconds' calls, from 1 ms (below it a
    /// copy races calls about to answer) to 15 ms (the 20 ms deadline less the slowest ordinary
    /// answer: a copy sent later cannot answer in time). In calm it settles near `hedged`'s fixed
    /// 5 ms; when the backend's latency shifts, it follows, and the copies go to the slowest
    /// calls instead of to half of them.
    let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))

    /// The extra calls sent: copies and retries.
    var hedgesStarted: Int { budget.extraCallsSent }

    /// The backend's breaker: opens when half the calls of the last second fail (an outage),
    /// or half of them run 15 ms or more (a hang: past the slowest call of a slow backend, 15
    /// ms, and the copies started at 0 and 5 ms of a request reach it before its deadline ends
    /// them), with 100 calls in the window; tries 5 calls again after half a second.
    let breaker = CircuitBreaker(
        name: "backend",
        policy: CircuitBreakerPolicy(
            failureRateThreshold: 0.5, window: .time(.seconds(1), buckets: 10), minimumCalls: 100,
            slowCallDuration: .milliseconds(15), slowCallRateThreshold: 0.5, openDuration: .milliseconds(500),
            trialCalls: 5))

    var breakerState: String? { breaker.state.description }

    /// The policy of every call: made once, as a service would.
    let policy: HedgingPolicy

    init(backend: Backend, drain: RequestDrain, limit: ConcurrencyLimit) {
        self.backend = backend
        self.drain = drain
        self.limit = limit
        policy = Self.policy(budget: budget, latencies: latencies, breaker: breaker)
    }

    var clock: DeadlineClock { backend.clock }

    /// The answers of every backend, each call retried and hedged, started on `loop`.
    func admitted(_ request: FanoutRequest, on loop: any EventLoop, within deadline: Deadline) -> Future<[Int]> {
        // The breaker open: the request is refused at once, not its 32 calls one by one (each
        // a retry loop and a hedge loop that the breaker then refuses).
        if let refusal = breaker.refusal { return .rejected(with: refusal) }
        // The calls' closures capture the two references they use, not `self`: with `self`
        // each captured a copy of this fan-out, seven references retained and released for
        // every backend call (perf: about 0.13 µs of CPU a call; the calm pair went from +0.45
        // to +0.28 µs a call at N = 32).
        return Future.startFollowing(on: .eventLoop(loop)) { [backend, policy] in
            let calls = (1...request.count).map { index in
                // Retries start on the loop after their wait, copies likewise after their delay:
                // both are kept by the loop's clock.
                Future.hedging(policy, clock: backend.clock) {
                    PetalFanout.call(index, key: request.key, on: loop, backend: backend, for: Self.variant)
                }
            }
            return Future.fulfillingWhen(calls).timeout(by: deadline)
        }
    }
}
