import CBenchSupport
import Contenders
import Petal
import PetalPrototypes

/// The probe's loops for the one-object prototype (`UniquePromise`), which is not a
/// `Contender`: a non-copyable promise cannot be a generic handle. Each loop is the one `run`
/// has for the contenders, so that callgrind's counts compare one for one. `false` for an
/// operation it has no loop for.
func runPrototype(_ operation: String, _ count: Int) -> Bool {
    Delivered.reset()
    switch operation {
    case "create+subscribe+fulfil":
        for value in 0..<count {
            let promise = UniquePromise<Int>()
            bench_escape(unsafeBitCast(promise.future, to: UnsafeRawPointer.self))
            promise.future.whenFulfilled { _ in bench_count_add() }
            promise.fulfil(with: value)
        }
    case "completion handler":
        // The completion owns the promise (a non-copyable value moves into the closure), so
        // the closure's context is a heap box holding it: the allocation a `Promise`, whose one
        // class reference is its own context, does not need.
        let kept = CompletionSlot()
        for value in 0..<count {
            let promise = UniquePromise<Int>()
            bench_escape(unsafeBitCast(promise.future, to: UnsafeRawPointer.self))
            promise.future.whenFulfilled { _ in bench_count_add() }
            kept.keep(completion(fulfilling: promise))
            kept.answer(with: value)
        }
    default:
        return false
    }
    precondition(Delivered.count == count, "\(Delivered.count) callbacks, expected \(count)")
    return true
}

/// The completion that owns `promise` and fulfils it. Made from a consuming parameter: captured
/// from a local `let` instead, the promise took a second box of its own (three allocations a
/// promise, counted by size), which a user would not write on purpose.
@inline(__always)
func completion(fulfilling promise: consuming UniquePromise<Int>) -> (Int) -> Void {
    { [promise] in promise.fulfil(with: $0) }
}
