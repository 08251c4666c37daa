import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// The Petal fan-out with every backend call hedged: a call that has not answered after
/// ``policy``'s delay gets a second copy, and a third after twice the delay; the first answer
/// wins and the other copies are cancelled through Petal's cancellation votes.
///
/// Why 3 copies 5 ms apart. A backend answers in 1 to 5 ms, or never (one call in 50).
/// - **The delay**: 5 ms is the slowest ordinary answer, so a copy is sent only for a call that
///   is lost or late (about 2% of calls, plus the few that the loop delays past 5 ms): a shorter
///   delay hedges calls about to answer (at 4 ms, a quarter of them), a longer one puts the
///   tail further out.
/// - **The copies**: at N = 32 a request waits for its slowest call. With two copies, a call
///   fails only if both are lost (0.02² = 0.04%), but a request fails if any of its 32 does:
///   1.3% of requests would end in 504 after 20 ms, which is already its p99. A third copy at
///   10 ms brings that to 32 × 0.02³ ≈ 0.03%, and the requests that need it (1.3%) answer by
///   about 15 ms, inside the deadline.
/// - **The budget**: extra copies at most 5% of calls (plus a burst of 64, two requests' worth
///   at N = 32), so a backend that slows down under load is not sent twice the load to slow it
///   further. In calm it lets through the ~2% the policy asks for.
struct HedgedFanout: Fanout {
    static let variant = Variant.hedged
    static let deadlineFromArrival = true

    /// Copies at most, the delay between them, and the budget.
    static func policy(budget: RetryBudget) -> HedgingPolicy {
        HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: budget)
    }

    /// The backends, with this variant's counters.
    let backend: Backend
    /// Where the request is tracked while it runs, so that a graceful shutdown can stop it.
    let drain: RequestDrain
    /// The variant whose counters the calls go to: `hedged`, or `limited` when this runs behind
    /// the limit.
    let countedAs: Variant
    /// The budget shared by every request of this variant.
    let budget = RetryBudget(share: 0.05, burst: 64)
    /// The policy of every call: made once, as a service would (a policy's values are checked
    /// when it is made, not on each call).
    let policy: HedgingPolicy

    init(backend: Backend, drain: RequestDrain, countedAs: Variant = Self.variant) {
        self.backend = backend
        self.drain = drain
        self.countedAs = countedAs
        policy = Self.policy(budget: budget)
    }

    var hedgesStarted: Int { budget.extraCallsSent }

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline, clock: backend.clock)
        return try await PetalFanout.sum(of: answers(to: request, on: loop, within: deadline), drain: drain)
    }

    /// The answers of every backend, each call hedged, started on `loop`; bounded by `deadline`
    /// if given (``LimitedFanout`` bounds the wait in its queue and the calls together).
    func answers(to request: FanoutRequest, on loop: any EventLoop, within deadline: Deadline?) -> Future<[Int]> {
        Future.startFollowing(on: .eventLoop(loop)) { [backend, countedAs, policy] in
            let calls = (1...request.count).map { index in
                // Every copy starts on the loop: the first here, later ones when their delay,
                // kept by the loop's clock, expires there.
                Future.hedging(policy, clock: backend.clock) {
                    PetalFanout.call(index, key: request.key, on: loop, backend: backend, for: countedAs)
                }
            }
            let all = Future.fulfillingWhen(calls)
            return deadline.map { all.timeout(by: $0) } ?? all
        }
    }
}
