import NIOCore
import NIOPosix
import Petal
import Synchronization

/// A simulated backend, as in Examples/Service: call `i` answers `key * i` after 1 to 5 ms, from
/// a timer on the backend's own event loop, and one call in 50 is lost and never answers.
final class Backend: Sendable {
    /// Its own loop, as a client library's connections have theirs: a flood at the server's
    /// front door then delays no answer.
    let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

    let started = Atomic<Int>(0)
    let answered = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)

    /// Neither answered nor cancelled: in flight, or leaked. Outcomes are read before starts, so
    /// that it is never negative while calls are in flight.
    var pending: Int {
        let done = answered.load(ordering: .sequentiallyConsistent) + cancelled.load(ordering: .sequentiallyConsistent)
        return started.load(ordering: .sequentiallyConsistent) - done
    }

    func call(_ index: Int, key: Int) -> Future<Int> {
        started.add(1, ordering: .sequentiallyConsistent)
        let promise = Promise<Int>()
        let draw = Int.random(in: 0..<(50 * 4001))
        let timer: Scheduled<Void>? =
            draw % 50 == 0
            ? nil
            : loop.scheduleTask(in: .microseconds(Int64(1000 + draw / 50))) { [self] in
                // `false` when a cancellation won the race: that call is counted below.
                if promise.fulfil(with: key * index) { answered.add(1, ordering: .sequentiallyConsistent) }
            }
        // A lost call holds its promise until it is cancelled, as a dead connection holds its
        // handler; the stop runs only when the cancellation won, so each call counts once.
        promise.cancelWhenRequested { [self] in
            withExtendedLifetime(promise) { timer?.cancel() }
            cancelled.add(1, ordering: .sequentiallyConsistent)
        }
        return promise.future
    }
}
