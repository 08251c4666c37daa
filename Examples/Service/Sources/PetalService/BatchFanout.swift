import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// `GET /fanout/batch`: `petal`'s fan-out with its N promises in one `PromiseBatch`, each call's
/// completion handler resolving its slot.
///
/// Why a variant of its own (issue 57): a batch is a handful of objects whatever N, where N
/// promises are 2N objects and N subscriptions to `fulfillingWhen`; in the suite's fan-out a batch
/// is 13 times a task group. This measures what it saves in a real server, against the floor
/// (`callbacks`), paired (`Scripts/service --only pairs --pairs "batch callbacks"`).
///
/// Everything else is `petal`'s: the fan-out starts on the loop that answers the calls, the
/// deadline bounds the batch's future, and a request (the timeout giving up, the client
/// leaving) stops the calls, through the batch's one stop (`cancelWhenRequested(stopping:)`):
/// one registration a request where a stop for each slot was one a call (1,001 -> 902
/// instructions a call, the probe's "service request N=32"; in the server, below what a pair
/// resolves). The calls' handlers fill the slots in arrival order (`fulfilNext(with:)`),
/// capturing the batch alone: 902 -> 543 instructions and 1.47 -> 0.47 allocations a call.
struct BatchFanout: Fanout {
    static let variant = Variant.batch
    static let deadlineFromArrival = true

    let backend: Backend
    let drain: RequestDrain

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline, clock: backend.clock)
        let all: Future<[Int]> = Future.startFollowing(on: .eventLoop(loop)) { [backend] in
            let batch = PromiseBatch<Int>(count: request.count)
            // Each handler captures the batch alone and takes the next slot: the sum needs no
            // order, and a handler that captured its slot (a reference and an index) would box
            // the two in a context of its own, an allocation a call.
            let calls = (1...request.count).map { index in
                backend.call(index, key: request.key, for: Self.variant, on: loop) { result in
                    switch result {
                    case .success(let value): batch.fulfilNext(with: value)
                    case .failure(let error): batch.rejectNext(with: error)
                    }
                }
            }
            // One stop for the batch, not one a slot: a call that answered ignores its cancel.
            batch.cancelWhenRequested { for call in calls { call.cancel() } }
            return batch.all.timeout(by: deadline)
        }
        return try await PetalFanout.sum(of: all, drain: drain)
    }
}
