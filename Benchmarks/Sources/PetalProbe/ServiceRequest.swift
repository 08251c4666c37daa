import CBenchSupport
import Petal

/// Petal's share of one request of the example service's `petal` variant
/// (`Examples/Service`, `PetalFanout`), without the server, the backends' timers or `await`:
/// `calls` promises whose owners stop their call when asked, combined by `fulfillingWhen` and
/// bounded by a 20 ms `timeout`; `answered` of them are fulfilled, and if that is not all, the
/// deadline passes and the timeout gives up on the rest.
///
/// For `Scripts/profile`: callgrind's counts of this loop are what a request's promises,
/// combinator, timeout and cancellations cost, exactly. The clock is manual, so the timeout's
/// deadline sits in a heap of its own and fires on this thread; the combined future is
/// observed with a callback where the service awaits it.
enum ServiceRequest {
    /// The deadline's clock: moved by the loop, never by a thread.
    private static let clock = DeadlineClock.manual()

    /// One request. Counts one delivery per call stopped and one for the combined outcome.
    static func run(calls: Int, answered: Int) {
        var promises: [Promise<Int>] = []
        promises.reserveCapacity(calls)
        let futures = (0..<calls).map { _ in
            let promise = Promise<Int>()
            // The service's `call.cancel()`: stops the call when every consumer has given up.
            promise.cancelWhenRequested { bench_count_add() }
            promises.append(promise)
            return promise.future
        }
        let all = Future.fulfillingWhen(futures).timeout(after: .milliseconds(20), clock: clock)
        all.whenResolved { _ in bench_count_add() }
        for (index, promise) in promises.prefix(answered).enumerated() { promise.fulfil(with: index) }
        if answered < calls { clock.advance(by: .milliseconds(20)) }
    }
}
