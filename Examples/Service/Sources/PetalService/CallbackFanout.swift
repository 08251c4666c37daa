import NIOCore
import Synchronization

/// The floor: the fan-out composed by hand, with plain closures, an atomic countdown, one
/// scheduled timeout, and a continuation resumed exactly once. No futures library. A backend's
/// failure (an outage) fails the request at once; the timeout then cancels the other calls.
///
/// It is what the other variants do underneath, without their generality: the cost of the
/// others above this one is the cost of their abstractions.
struct CallbackFanout: Fanout {
    static let variant = Variant.callbacks

    /// The backends, with this variant's counters.
    let backend: Backend

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        try await withCheckedThrowingContinuation { continuation in
            let gathering = Gathering(expecting: request.count, continuation: continuation)
            let calls = (1...request.count).map { index in
                backend.call(index, key: request.key, for: Self.variant, on: loop) { gathering.receive($0) }
            }
            gathering.setUp(
                timeout: loop.scheduleTask(in: TimeAmount(FanoutRequest.deadline)) {
                    gathering.expire(cancelling: calls)
                })
        }
    }
}

/// The state of one callback fan-out: a running sum, a countdown, and who resumes the
/// continuation.
///
/// The countdown starts at the number of calls plus one for the set-up itself, so that answers
/// arriving before the timeout is stored (possible when the setting-up thread is preempted) can
/// never finish the request before the timeout can be cancelled: whoever brings the count to
/// zero, the last answer or the end of the set-up, finishes it.
private final class Gathering: @unchecked Sendable {
    /// The sum of the answers so far.
    private let sum = Atomic<Int>(0)
    /// Answers still expected, plus one until the set-up is done.
    private let remaining: Atomic<Int>
    /// Whether the continuation was resumed, by the last answer or by the timeout.
    private let decided = Atomic<Bool>(false)
    private let continuation: CheckedContinuation<Int?, any Error>
    /// Written once by `setUp` before its countdown step, read only after the last one (the
    /// countdown's acquire-release orders the two): hence `@unchecked Sendable`.
    private var timeout: Scheduled<Void>?

    /// A gathering of `count` answers for `continuation`.
    init(expecting count: Int, continuation: CheckedContinuation<Int?, any Error>) {
        remaining = Atomic(count + 1)
        self.continuation = continuation
    }

    /// One backend answered, or failed: a failure answers the request with it at once. It does
    /// not count down, so the timeout stays armed and, at the deadline, cancels the calls still
    /// pending (a hanging one would otherwise hold its handler for ever).
    func receive(_ answer: Result<Int, BackendUnavailableError>) {
        switch answer {
        case .success(let value):
            sum.wrappingAdd(value, ordering: .relaxed)
            countDown()
        case .failure(let error):
            guard decide() else { return }
            continuation.resume(throwing: error)
        }
    }

    /// The calls are made and their timeout is scheduled.
    func setUp(timeout: Scheduled<Void>) {
        self.timeout = timeout
        countDown()
    }

    /// The deadline passed: cancel `calls` (those that answered ignore it) and answer `nil`,
    /// unless every answer came first. Cancelled first, as the other variants do, so that a
    /// request has released its calls by the time its answer is sent.
    func expire(cancelling calls: [BackendCall]) {
        // After a failure answered the request, the calls are still cancelled here.
        let deciding = decide()
        for call in calls { call.cancel() }
        if deciding { continuation.resume(returning: nil) }
    }

    /// One step of the countdown; the last resumes the continuation with the sum.
    private func countDown() {
        // Acquire-release: the last step sees every answer's add, and `timeout`.
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0, decide() else { return }
        timeout?.cancel()
        continuation.resume(returning: sum.load(ordering: .relaxed))
    }

    /// Whether this caller is the one that resumes the continuation.
    private func decide() -> Bool {
        !decided.exchange(true, ordering: .acquiringAndReleasing)
    }
}
