import NIOCore
import Petal
import PetalServiceLifecycle

/// ``HedgedFanout`` behind a `ConcurrencyLimit` on the requests: at most `maximum` requests
/// fanning out at once and `queue` waiting; past that, a request is refused at once (the route
/// answers 503), so that the requests the server takes keep their latency under overload
/// instead of all of them queueing behind each other.
///
/// The deadline covers the wait in the queue and the calls together: a request still queued at
/// 20 ms leaves the queue (its future's cancellation vote takes it out) and answers 504, and
/// one that is running has its calls cancelled, which frees its slot for the next in line.
struct LimitedFanout: FanoutBehindLimit {
    static let variant = Variant.limited
    static let deadlineFromArrival = true

    /// The hedged fan-out that runs once admitted, counted as this variant.
    let hedged: HedgedFanout
    /// The limit on the requests fanning out.
    let limit: ConcurrencyLimit

    init(backend: Backend, drain: RequestDrain, limit: ConcurrencyLimit) {
        hedged = HedgedFanout(backend: backend, drain: drain, countedAs: Self.variant)
        self.limit = limit
    }

    var drain: RequestDrain { hedged.drain }
    var clock: DeadlineClock { hedged.backend.clock }
    var hedgesStarted: Int { hedged.hedgesStarted }

    func admitted(_ request: FanoutRequest, on loop: any EventLoop, within deadline: Deadline) -> Future<[Int]> {
        hedged.answers(to: request, on: loop, within: deadline)
    }
}

/// The fan-outs behind the service's limit (`limited`, `resilient`): each request's fan-out is
/// an operation of `limit`, and the request's deadline covers its wait in the queue and its
/// calls together: the limit takes a waiting request out of its queue at the deadline bound
/// around it (`Deadline.current`), and the fan-out's own timeout, set on the backends' loop as
/// `hedged`'s is, ends its calls.
///
/// Why the timeout is set inside the operation, not on the limit's future: set there, it was
/// set from the handler's task, on another thread than the loop whose clock keeps it, and
/// `resilient` paid for that on every request where `hedged` did not (perf, paired at N = 3:
/// the timeout's scheduling about 0.8 µs a request more).
protocol FanoutBehindLimit: Fanout {
    /// The limit on the requests fanning out.
    var limit: ConcurrencyLimit { get }
    /// Where the request is tracked while it runs, so that a graceful shutdown can stop it.
    var drain: RequestDrain { get }
    /// The clock of the request's deadline when none is bound: the backends' loop's.
    var clock: DeadlineClock { get }
    /// The fan-out a request makes once the limit admits it, its calls ended at `deadline`.
    func admitted(_ request: FanoutRequest, on loop: any EventLoop, within deadline: Deadline) -> Future<[Int]>
}

extension FanoutBehindLimit {
    var currentLimit: Int? { limit.maximum }

    /// An adaptive limit that times the requests (`--limit-timing requests`) counts their whole
    /// time: what grows under a flood is mostly the wait for a thread around the fan-out.
    func answered(after elapsed: Duration, timedOut: Bool) {
        limit.report(elapsed, cancelled: timedOut)
    }

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        // A refusal is a rejection with `ConcurrencyLimitExceededError`, which the route turns
        // into a 503; a request that waited past its deadline in the queue is rejected with the
        // deadline's error, a 504.
        if let deadline = Deadline.current {
            return try await PetalFanout.sum(of: operation(request, on: loop, within: deadline), drain: drain)
        }
        // No deadline bound (a route that does not bind one): this one, bound for the limit's
        // queue too.
        let deadline = Deadline(after: FanoutRequest.deadline, clock: clock)
        let answers = Deadline.withValue(deadline) { operation(request, on: loop, within: deadline) }
        return try await PetalFanout.sum(of: answers, drain: drain)
    }

    /// The request's operation of `limit`: the fan-out, once admitted.
    private func operation(
        _ request: FanoutRequest, on loop: any EventLoop, within deadline: Deadline
    ) -> Future<[Int]> {
        limit.run { [self] in admitted(request, on: loop, within: deadline) }
    }
}
