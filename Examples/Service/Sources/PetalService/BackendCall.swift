import NIOCore
import Synchronization

/// One call to a simulated backend, in flight: it holds its completion handler until it answers
/// or is cancelled, as a real I/O request does.
///
/// The contract every variant codes against:
/// - **answer**: the handler runs once, on the event loop whose timer fired, with the value (or,
///   during an outage, with ``BackendUnavailableError``, from the loop);
/// - **cancel**: the handler is released *without running* and the timer, if any, is cancelled;
///   the caller must resolve whatever waits on the call itself;
/// - whichever comes first wins; the other does nothing. Both are counted, exactly once.
///
/// One lock per call arbitrates between the loop that answers and whoever cancels (a task's
/// cancellation handler, Petal's timer thread, the loop itself): a plain atomic flag could decide
/// the race too, but the handler and the timer must be taken out and released together with it.
final class BackendCall: Sendable {
    /// The handler a call runs with its answer.
    typealias Completion = @Sendable (Result<Int, BackendUnavailableError>) -> Void

    /// Waiting (with its handler, and its timer once armed), or over.
    private enum State {
        case waiting(Completion, timer: Scheduled<Void>?)
        case finished
    }

    private let state: Mutex<State>
    private let counters: VariantCounters

    /// A call that holds `completion` until it answers or is cancelled.
    init(counters: VariantCounters, completion: @escaping Completion) {
        self.counters = counters
        state = Mutex(.waiting(completion, timer: nil))
        VariantCounters.increment(counters.started)
    }

    /// Keeps the timer that will answer, so that `cancel()` can release it; cancels it at once if
    /// the call was cancelled before it was armed.
    func arm(_ timer: Scheduled<Void>) {
        let armed = state.withLock { state -> Bool in
            guard case .waiting(let completion, nil) = state else { return false }
            state = .waiting(completion, timer: timer)
            return true
        }
        if !armed { timer.cancel() }
    }

    /// Answers with `value`, unless the call was cancelled first. Runs the handler outside the
    /// lock: it may resolve futures whose callbacks run inline, for as long as they like.
    func answer(_ value: Int) {
        finish(with: .success(value))
    }

    /// Fails with `error`, unless the call was cancelled first: counted as answered (its handler
    /// ran), as `answer(_:)` is.
    func fail(_ error: BackendUnavailableError) {
        finish(with: .failure(error))
    }

    private func finish(with result: Result<Int, BackendUnavailableError>) {
        let completion = state.withLock { state -> Completion? in
            guard case .waiting(let completion, _) = state else { return nil }
            state = .finished
            return completion
        }
        guard let completion else { return }
        VariantCounters.increment(counters.answered)
        completion(result)
    }

    /// Cancels the call if it has not answered: its timer is cancelled and its handler released
    /// unrun. Safe from any thread, any number of times.
    func cancel() {
        let timer = state.withLock { state -> Scheduled<Void>?? in
            guard case .waiting(_, let timer) = state else { return nil }
            state = .finished  // releases the handler, and whatever it captured
            return .some(timer)
        }
        guard let timer else { return }
        VariantCounters.increment(counters.cancelled)
        timer?.cancel()
    }
}
