import CBenchSupport
import Petal
import PetalPrototypes

/// Petal with a non-copyable promise (`UniquePromise`, a prototype in PetalPrototypes): one object per
/// promise instead of two, the abandoned-promise rule kept by the promise's own `deinit`. It shows
/// what dropping `Promise`'s handle object would buy, on every workload where a promise has one
/// owner and the handle's cost is not spread over many operations:
/// - create+subscribe+fulfil and subscribe after fulfil, as the suite runs them;
/// - producer/consumer pairs, the promises in an unsafe buffer (an `Array` cannot hold a
///   non-copyable element), borrowed by the producer and the consumer of each pair.
///
/// It does not run where many threads resolve one promise (shared promises, the fulfil race),
/// which a one-owner promise cannot express; on the single hot promise, whose one handle is
/// spread over hundreds of subscribers; nor on the chains, whose head `Promise` never leaves
/// the function that makes it, so that Swift allocates it on the stack: Petal's chains make one
/// heap object per promise already (measured with this prototype: the same allocations per
/// step, and 0.93-1.12x Petal's speed in runs 26 and 27).
enum UniquePromisePrototype {
    static let name = "Petal, non-copyable promise (prototype)"

    static let entry = Entry(contender: name) { workload, threads in
        let pool = WorkerPool.shared(threads: threads)
        switch workload {
        case .createSubscribeFulfil, .subscribeAfterFulfil:
            return createAndSubscribe(after: workload == .subscribeAfterFulfil, pool: pool).wakingFirst(pool)
        case .privatePairs:
            return pairs(pool: pool).wakingFirst(pool)
        default:
            return nil
        }
    }

    /// As `Workload.createSubscribeFulfil` and `.subscribeAfterFulfil`.
    private static func createAndSubscribe(after: Bool, pool: WorkerPool) -> Round {
        let perThread = 512
        let threads = pool.threads
        return Round(operations: perThread * threads) {
            Delivered.reset()
            pool.run { _ in
                let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
                for value in 0..<perThread {
                    let promise = UniquePromise<Int>()
                    // The storage escapes, as every contender's promise does.
                    bench_escape(unsafeBitCast(promise.future, to: UnsafeRawPointer.self))
                    if after {
                        promise.fulfil(with: value)
                        promise.future.whenFulfilled(callback)
                    } else {
                        promise.future.whenFulfilled { _ in bench_count_add() }
                        promise.fulfil(with: value)
                    }
                }
            }
            verify(Delivered.count == perThread * threads, "\(name): \(Delivered.count) callbacks delivered")
        }
    }

    /// As `Workload.privatePairs`: the promises are made and dropped inside the round, as the
    /// suite's handles are.
    private static func pairs(pool: WorkerPool) -> Round {
        let perPair = 256
        let threads = pool.threads
        let pairs = max(1, threads / 2)
        return Round(operations: perPair * pairs * 2) {
            Delivered.reset()
            let promises = UnsafeMutableBufferPointer<UniquePromise<Int>>.allocate(capacity: pairs * perPair)
            for index in 0..<promises.count { promises.initializeElement(at: index, to: UniquePromise<Int>()) }
            // Sound to share: each pair's producer and consumer only borrow their own promises,
            // and the buffer is deinitialised after `run` has joined every worker.
            let shared = Shared(promises)
            pool.run { index in
                let pair = min(index / 2, pairs - 1)
                let mine = (pair * perPair)..<((pair + 1) * perPair)
                pool.startTogether()
                if threads == 1 {
                    for slot in mine {
                        shared.value[slot].future.whenFulfilled { _ in bench_count_add() }
                        shared.value[slot].fulfil(with: 1)
                    }
                } else if index >= pairs * 2 {
                    return  // an odd thread out has no partner
                } else if index.isMultiple(of: 2) {
                    for slot in mine { shared.value[slot].fulfil(with: 1) }
                } else {
                    for slot in mine { shared.value[slot].future.whenFulfilled { _ in bench_count_add() } }
                }
            }
            verify(Delivered.count == perPair * pairs, "\(name): \(Delivered.count) callbacks delivered")
            promises.baseAddress.unsafelyUnwrapped.deinitialize(count: promises.count)
            promises.deallocate()
        }
    }
}
