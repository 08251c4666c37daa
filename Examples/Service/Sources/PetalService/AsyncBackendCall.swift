import NIOCore
import Synchronization

/// A backend call as an `async` function: it returns the answer (or the backend's failure), or
/// `nil` as soon as the calling task is cancelled (and then the call is cancelled too).
///
/// The usual bridge: `withCheckedContinuation` waits for the handler, and
/// `withTaskCancellationHandler` cancels the call. The two can race (the task may be cancelled
/// before the call exists, or while it answers), so a small state machine under a lock decides
/// who resumes the continuation, exactly once.
final class AsyncBackendCall: Sendable {
    /// What the call answered.
    typealias Answer = Result<Int, BackendUnavailableError>

    /// Where the bridge stands.
    private enum State {
        /// Before the call exists.
        case idle
        /// The call is made and the task waits on it.
        case waiting(BackendCall, CheckedContinuation<Answer?, Never>)
        /// The call answered before the task started waiting on it (its thread was preempted
        /// for longer than the backend's delay, which a loaded machine does).
        case answeredEarly(Answer)
        /// The task was cancelled before the call existed: cancel it as soon as it does.
        case cancelled
        /// The continuation was resumed.
        case finished
    }

    private let state = Mutex(State.idle)

    /// Calls backend `index` and waits for its answer; `nil` if the task is cancelled first.
    static func answer(of backend: Backend, _ index: Int, key: Int, on loop: any EventLoop) async -> Answer? {
        let bridge = AsyncBackendCall()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                bridge.start(continuation) { completion in
                    backend.call(index, key: key, for: .asyncAwait, on: loop, completion: completion)
                }
            }
        } onCancel: {
            bridge.cancel()
        }
    }

    /// Makes the call with a handler that resumes `continuation`, unless the task was cancelled.
    private func start(
        _ continuation: CheckedContinuation<Answer?, Never>,
        making makeCall: (@escaping BackendCall.Completion) -> BackendCall
    ) {
        // Made outside the lock, which is never held while calling out; an answer or a
        // cancellation in between is found below.
        let call = makeCall { [self] value in finish(with: value) }
        let earlier = state.withLock { state -> State in
            let earlier = state
            if case .idle = state { state = .waiting(call, continuation) } else { state = .finished }
            return earlier
        }
        switch earlier {
        case .idle: break
        case .answeredEarly(let value): continuation.resume(returning: value)
        case .cancelled, .waiting, .finished:
            call.cancel()
            continuation.resume(returning: nil)
        }
    }

    /// The call answered: resume the task with `value`.
    private func finish(with value: Answer) {
        let continuation = state.withLock { state -> CheckedContinuation<Answer?, Never>? in
            switch state {
            case .waiting(_, let continuation):
                state = .finished
                return continuation
            case .idle:
                state = .answeredEarly(value)  // `start` resumes the task with it
                return nil
            case .answeredEarly, .cancelled, .finished:
                return nil
            }
        }
        continuation?.resume(returning: value)
    }

    /// The task was cancelled: cancel the call and resume the task with `nil`, or, before the
    /// call exists, leave that to `start`.
    private func cancel() {
        let waiting = state.withLock { state -> (BackendCall, CheckedContinuation<Answer?, Never>)? in
            switch state {
            case .idle:
                state = .cancelled
                return nil
            case .waiting(let call, let continuation):
                state = .finished
                return (call, continuation)
            case .answeredEarly, .cancelled, .finished:
                return nil  // `start` resumes the task, or already did
            }
        }
        guard let (call, continuation) = waiting else { return }
        call.cancel()
        continuation.resume(returning: nil)
    }
}
