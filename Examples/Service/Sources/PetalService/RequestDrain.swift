import Petal
import Synchronization

/// The Petal requests in flight, for graceful shutdown: ``begin()`` asks every one of them to
/// stop, so that their backend calls are cancelled at once instead of running to their deadline.
///
/// Built on Petal's `CancellationPool`, which holds its items weakly and prunes the dead ones as
/// it is fed, so tracking a request costs two small allocations and a compare-and-swap, and a
/// server that runs for months holds about as many entries as it has requests in flight.
final class RequestDrain: Sendable {
    private let pool = CancellationPool()
    private let stopping = Atomic<Bool>(false)

    /// Whether ``begin()`` has been called: new requests are then refused.
    var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// One request in the pool: asking it to cancel asks its future's producer to stop.
    final class Tracked: Cancellable {
        private let request: @Sendable () -> Void

        init(_ request: @escaping @Sendable () -> Void) {
            self.request = request
        }

        func attemptCancel() { request() }
    }

    /// Tracks `future` for as long as the caller keeps the returned object alive; asks it to stop
    /// at once if the drain has already begun.
    ///
    /// Added before the flag is read, and the flag is set before the pool is drained (both
    /// sequentially consistent, and the pool's push is a full barrier): so either the drain
    /// finds this request in the pool, or this call sees the flag. No request slips between.
    func track<Value: Sendable>(_ future: Future<Value>) -> Tracked {
        let tracked = Tracked { future.requestCancellation() }
        pool.add(tracked)
        if isStopping { tracked.attemptCancel() }
        return tracked
    }

    /// Refuses new requests and asks every tracked one to stop, on this thread, before returning.
    func begin() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        pool.drain()
    }
}

/// What a request refused because the server is shutting down throws: answered with 503.
struct ShuttingDownError: Error, CustomStringConvertible {
    var description: String { "the server is shutting down" }
}
