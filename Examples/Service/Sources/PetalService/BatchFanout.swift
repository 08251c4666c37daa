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
/// resolves).
struct BatchFanout: Fanout {
    static let variant = Variant.batch
    static let deadlineFromArrival = true

    let backend: Backend
    let drain: RequestDrain

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline, clock: backend.clock)
        let all: Future<[Int]> = Future.startFollowing(on: .eventLoop(loop)) { [backend] in
            let batch = PromiseBatch<Int>(count: request.count)
            let calls = (0..<request.count).map { index in
                let slot = batch[index]
                return backend.call(index + 1, key: request.key, for: Self.variant, on: loop) { result in
                    switch result {
                    case .success(let value): slot.fulfil(with: value)
                    case .failure(let error): slot.reject(with: error)
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
