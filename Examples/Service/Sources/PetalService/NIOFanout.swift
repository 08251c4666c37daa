import NIOCore

/// The fan-out with SwiftNIO's futures: an `EventLoopPromise` per backend call,
/// `EventLoopFuture.whenAllSucceed` to combine them, and a task scheduled at the deadline that
/// fails whatever is still pending; the handler awaits with `get()`. A backend's failure fails
/// the request at once, and the other calls with it.
///
/// Everything runs on the backends' event loop, as NIO code does: one hop onto the loop
/// (`flatSubmit`), then the calls' timers, the combination and the timeout all fire there, so
/// nothing needs a lock of its own. NIO futures cannot be cancelled, so the timeout cancels the
/// calls itself and fails their promises (a promise left uncompleted is a leak NIO's debug
/// builds trap on).
struct NIOFanout: Fanout {
    static let variant = Variant.nio

    /// The backends, with this variant's counters.
    let backend: Backend

    /// The error that fails the calls still pending at the deadline.
    private struct DeadlinePassed: Error {}

    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int? {
        do {
            return try await loop.flatSubmit { [backend] in
                let promises = (0..<request.count).map { _ in loop.makePromise(of: Int.self) }
                let calls = promises.indices.map { offset in
                    backend.call(offset + 1, key: request.key, for: Self.variant, on: loop) {
                        promises[offset].completeWith($0.mapError { $0 })
                    }
                }
                let giveUp: @Sendable () -> Void = {
                    for (call, promise) in zip(calls, promises) {
                        call.cancel()  // does nothing to a call that answered
                        promise.fail(DeadlinePassed())  // likewise for a promise that completed
                    }
                }
                let deadline = loop.scheduleTask(in: TimeAmount(FanoutRequest.deadline), giveUp)
                let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
                all.whenSuccess { _ in deadline.cancel() }
                // A backend failed (an outage): the request fails with its error, and the other
                // calls are given up on at once rather than at the deadline.
                all.whenFailure { _ in
                    deadline.cancel()
                    giveUp()
                }
                return all.map { $0.reduce(0, +) }
            }.get()
        } catch is DeadlinePassed {
            return nil
        }
    }
}
