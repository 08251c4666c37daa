import NIOCore

/// The fan-out with SwiftNIO's futures: an `EventLoopPromise` per backend call,
/// `EventLoopFuture.whenAllSucceed` to combine them, and a task scheduled at the deadline that
/// fails whatever is still pending; the handler awaits with `get()`.
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
                        promises[offset].succeed($0)
                    }
                }
                let deadline = loop.scheduleTask(in: TimeAmount(FanoutRequest.deadline)) {
                    for (call, promise) in zip(calls, promises) {
                        call.cancel()  // does nothing to a call that answered
                        promise.fail(DeadlinePassed())  // likewise for a promise that succeeded
                    }
                }
                let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
                all.whenSuccess { _ in deadline.cancel() }
                return all.map { $0.reduce(0, +) }
            }.get()
        } catch is DeadlinePassed {
            return nil
        }
    }
}
