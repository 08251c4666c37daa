import NIOCore

/// The fan-out with Swift concurrency: a task group with one child per backend call and one
/// that sleeps until the deadline, racing; the first to decide cancels the others.
///
/// The backend's callback API is bridged with `withTaskCancellationHandler` around
/// `withCheckedContinuation` (`AsyncBackendCall`), so cancelling a child cancels its call.
struct AsyncFanout: Fanout {
    static let variant = Variant.asyncAwait

    /// The backends, with this variant's counters.
    let backend: Backend

    /// What a child task of the group reports.
    private enum Arrival: Sendable {
        /// A backend's answer (or failure), or `nil` if its call was cancelled.
        case answer(AsyncBackendCall.Answer?)
        /// The deadline passed.
        case deadline
    }

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        let deadline = ContinuousClock.now.advanced(by: FanoutRequest.deadline)
        let outcome = await withTaskGroup(of: Arrival.self) { group -> Result<Int?, BackendUnavailableError> in
            for index in 1...request.count {
                group.addTask { [backend] in
                    .answer(await AsyncBackendCall.answer(of: backend, index, key: request.key, on: loop))
                }
            }
            group.addTask {
                // Cancelled when every backend answered: `try?` then ends the child at once.
                try? await Task.sleep(until: deadline, clock: .continuous)
                return .deadline
            }
            var sum = 0
            var remaining = request.count
            while let arrival = await group.next() {
                switch arrival {
                case .answer(.success(let value)?):
                    sum += value
                    remaining -= 1
                    guard remaining == 0 else { continue }
                    group.cancelAll()  // the sleeping child
                    return .success(sum)
                case .answer(.failure(let error)?):
                    // A backend failed (an outage): so does the request, and the other calls stop.
                    group.cancelAll()
                    return .failure(error)
                case .answer(nil), .deadline:
                    // The deadline passed (or the request's own task was cancelled, which cancels
                    // the group's children): cancelling the group stops the calls still waiting.
                    group.cancelAll()
                    return .success(nil)
                }
            }
            return .success(nil)  // unreachable: the deadline child always reports
        }
        return try outcome.get()
    }
}
