import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// The fan-out with Petal: on the backends' event loop, each backend call is a `Promise<Int>`;
/// `fulfillingWhen` combines them, `timeout` bounds the whole, and the handler awaits the result.
///
/// Nothing here cancels anything by hand. When the deadline passes, the timeout gives up on
/// `fulfillingWhen`, which gives up on every call still pending; each call's promise hears it in
/// its `cancelWhenRequested` handler, which stops the call. When everything answers in
/// time, the timeout takes its deadline out of Petal's timer heap at once.
struct PetalFanout: Fanout {
    static let variant = Variant.petal
    static let deadlineFromArrival = true

    /// The backends, with this variant's counters.
    let backend: Backend
    /// Where the request is tracked while it runs, so that a graceful shutdown can stop it.
    let drain: RequestDrain

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        // Fans out from the loop that answers the calls: their promises are then made, fulfilled
        // and freed on one thread, not made on this task's thread and answered on the loop's.
        // One hop per request, as the nio variant makes; the started future follows the one the
        // closure returns, and passes the awaiting task's cancellation on to it.
        let deadline = Deadline.current ?? Deadline(after: FanoutRequest.deadline, clock: backend.clock)
        let all: Future<[Int]> = Future.startFollowing(on: .eventLoop(loop)) { [backend] in
            let calls = (1...request.count).map {
                Self.call($0, key: request.key, on: loop, backend: backend, for: Self.variant)
            }
            return Future.fulfillingWhen(calls).timeout(by: deadline)
        }
        return try await Self.sum(of: all, drain: drain)
    }

    /// Awaits `answers` and adds them up: `nil` when the deadline passed first. While it waits,
    /// the request is in `drain`, and a shutdown that begins asks it to stop.
    static func sum(of answers: Future<[Int]>, drain: RequestDrain) async throws -> Int? {
        drain.track(answers)
        do {
            // Also votes for cancelling the calls if the request's task is cancelled.
            return try await answers.value(cancellingUpstream: true).reduce(0, +)
        } catch is FutureTimeoutError {
            return nil
        } catch is CircuitBreakerOpenError {
            // The backend is down as far as the breaker knows: answered as its failure is.
            throw BackendUnavailableError()
        } catch let cancelled as FutureCancelledError {
            // A refusal by a limit upstream of the timeout reaches here as the cancellation
            // it caused (Petal's one failure rule), carrying the refusal as its indirect error.
            if let refusal = cancelled.indirectError as? ConcurrencyLimitExceededError { throw refusal }
            // So does work refused because the request's deadline had passed (a limit's queue, a
            // hedge, a start): answered 504, as the timeout's own error is.
            if cancelled.indirectError is FutureTimeoutError { return nil }
            // A backend's failure that ended the request (`fulfillingWhen` gives up on the rest).
            if let failure = cancelled.indirectError as? BackendUnavailableError { throw failure }
            if cancelled.indirectError is CircuitBreakerOpenError { throw BackendUnavailableError() }
            if drain.isDraining { throw ShuttingDownError() }
            throw cancelled
        }
    }

    /// Calls one backend for `variant`: a future of its answer, whose producer stops the call
    /// when every consumer has given up on it.
    static func call(
        _ index: Int, key: Int, on loop: any EventLoop, backend: Backend, for variant: Variant
    ) -> Future<Int> {
        let promise = Promise<Int>()
        let call = backend.call(index, key: key, for: variant, on: loop) { result in
            switch result {
            case .success(let value): promise.fulfil(with: value)
            case .failure(let error): promise.reject(with: error)
            }
        }
        // A request (the timeout giving up, the client going away) cancels the future and stops
        // the call: no weak capture of the promise, and no side table for one.
        promise.cancelWhenRequested { call.cancel() }
        return promise.future
    }
}
