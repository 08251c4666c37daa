import Dispatch
import Petal

// A promise fulfilled on a Dispatch queue: the callback runs on the resolving thread, and the
// blocking wait returns the outcome. The wait returns as soon as the outcome is published, which
// may be while the resolving thread is still in the callback, so the program also waits for the
// callback to finish before it prints (and exits).
let promise = Promise<Int>()
let printed = DispatchSemaphore(value: 0)
promise.future.whenFulfilled {
    print("petal-consumer Swift: callback got \($0)")
    printed.signal()
}
DispatchQueue.global().async { promise.fulfil(with: 42) }
let outcome = promise.future.wait()
printed.wait()
print("petal-consumer Swift: waited for \(outcome)")
