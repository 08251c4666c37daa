import Dispatch
import Petal

// A promise fulfilled on a Dispatch queue: a callback runs on the resolving thread, then the
// blocking wait returns the outcome (callbacks run in subscription order).
let promise = Promise<Int>()
promise.future.whenFulfilled { print("petal-consumer Swift: callback got \($0)") }
DispatchQueue.global().async { promise.fulfil(with: 42) }
print("petal-consumer Swift: waited for \(promise.future.wait())")
