import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// `GET /fanout/guide`: the fan-out as the service guide's first sections write it
/// (`UsingPetalInAService`, *Awaiting a future in an async handler* and *Timeouts that stop
/// what they gave up on*): each call's promise made in the handler's task, with its
/// cancellation handler; `fulfillingWhen` and a timeout over them; the result awaited with
/// `value(cancellingUpstream:)`.
///
/// Why a variant of its own (issue 57): it is `petal` but for one thing, where the calls are
/// made. `petal` makes them on the loop that answers them (`startFollowing(on:)`, the guide's
/// *Callbacks on the event loop*); here they are made on the task's thread and resolved on the
/// loop's, so each call's promise, its cancellation record and the combinator's state cross
/// cores. Paired against `petal` (`Scripts/service --only pairs --pairs "guide petal"`), it
/// measures what a server written from the guide's first snippets pays for that.
struct GuideFanout: Fanout {
    static let variant = Variant.guide
    static let deadlineFromArrival = true

    let backend: Backend
    let drain: RequestDrain

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline, clock: backend.clock)
        let calls = (1...request.count).map {
            PetalFanout.call($0, key: request.key, on: loop, backend: backend, for: Self.variant)
        }
        return try await PetalFanout.sum(of: Future.fulfillingWhen(calls).timeout(by: deadline), drain: drain)
    }
}
