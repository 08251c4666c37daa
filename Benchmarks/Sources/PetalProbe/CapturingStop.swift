import CBenchSupport
import Petal

/// A producer's stop as a service registers it: capturing the call it stops (`{ call.cancel() }`),
/// where the service request's stops capture nothing. "capturing stop" is a promise with such a
/// stop, subscribed and fulfilled (an operation is one promise); "batch capturing stops" a
/// `PromiseBatch` of 32 slots, each with such a stop, fulfilled (an operation is one slot);
/// "cancellation handler capturing two" a promise with a `whenCancellationRequested` handler.
enum CapturingStop {
    /// A backend call's handle, as the stop captures it.
    final class Call: @unchecked Sendable {
        // @unchecked: one thread here.
        var stopped = 0
    }

    static func promise(_ count: Int) {
        let call = Call()
        for value in 0..<count {
            let promise = Promise<Int>()
            promise.cancelWhenRequested { call.stopped += 1 }
            promise.future.whenFulfilled { _ in bench_count_add() }
            promise.fulfil(with: value)
        }
    }

    /// The handler the seeds' API registers, as its documentation writes it: capturing the
    /// call and the promise, weakly ("cancellation handler capturing two").
    static func handler(_ count: Int) {
        let call = Call()
        for value in 0..<count {
            let promise = Promise<Int>()
            promise.whenCancellationRequested { [weak promise] in
                call.stopped += 1
                promise?.cancel()
            }
            promise.future.whenFulfilled { _ in bench_count_add() }
            promise.fulfil(with: value)
        }
    }

    static func batch(_ count: Int) {
        precondition(count.isMultiple(of: 32), "COUNT must be a multiple of 32")
        let calls = (0..<32).map { _ in Call() }
        for _ in 0..<count / 32 {
            let batch = PromiseBatch<Int>(count: 32)
            for index in 0..<32 {
                let call = calls[index]
                batch[index].cancelWhenRequested { call.stopped += 1 }
            }
            batch.all.whenFulfilled { _ in for _ in 0..<32 { bench_count_add() } }
            for index in 0..<32 { batch[index].fulfil(with: index) }
        }
    }
}
