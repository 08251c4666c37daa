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
struct LimitedFanout: Fanout {
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

    var hedgesStarted: Int { hedged.hedgesStarted }
    var currentLimit: Int? { limit.maximum }

    /// An adaptive limit that times the requests (`--limit-timing requests`) counts their whole
    /// time: what grows under a flood is mostly the wait for a thread around the fan-out.
    func answered(after elapsed: Duration, timedOut: Bool) {
        limit.report(elapsed, cancelled: timedOut)
    }

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        // A refusal is a rejection with `ConcurrencyLimitExceededError`, which the route turns
        // into a 503 (`timeout` passes it on as the indirect error of its cancellation).
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline)
        let answers = limit.run { [hedged] in hedged.answers(to: request, on: loop, within: nil) }
            .timeout(by: deadline)
        return try await PetalFanout.sum(of: answers, drain: hedged.drain)
    }
}
