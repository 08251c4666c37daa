import CBenchSupport
import Petal
import PetalPrototypes

/// Petal with a non-copyable promise (`UniquePromise`, a prototype in PetalPrototypes): one object per
/// promise instead of two, the abandoned-promise rule kept by the promise's own `deinit`. It is
/// measured on the two workloads it compiles in, to show what dropping `Promise`'s handle object
/// would buy; the others keep promises in arrays, which a non-copyable type cannot be in.
enum UniquePromisePrototype {
    static let name = "Petal, non-copyable promise (prototype)"

    static let entry = Entry(contender: name) { workload, threads in
        guard workload == .createSubscribeFulfil || workload == .subscribeAfterFulfil else { return nil }
        let pool = WorkerPool.shared(threads: threads)
        let perThread = 512
        let after = workload == .subscribeAfterFulfil
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
        .wakingFirst(pool)
    }
}
