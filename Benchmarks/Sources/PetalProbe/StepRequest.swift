import CBenchSupport
import Petal

/// A future-returning step's cost (issue 54): `then` whose closure returns a call's future,
/// with requests passed on to that future when it can be asked.
///
/// For `Scripts/profile`: an operation is one step on a pending promise, observed with a
/// callback, its head fulfilled, then the call answered. "step returning a future" returns a
/// plain promise's future (nothing to ask: the step's cost without a request to pass on);
/// "step returning a future then a step" chains a value step after it (a dependent made while
/// the step may still pass requests on); "step returning an askable future" returns a call
/// whose owner stops its work when asked.
enum StepRequest {
    /// `count` steps; `askable` calls register a stop, `chained` adds a value step after.
    static func run(_ count: Int, askable: Bool, chained: Bool) {
        for value in 0..<count {
            let head = Promise<Int>()
            let call = Promise<Int>()
            if askable { call.cancelWhenRequested { bench_count_add() } }
            let step = head.future.then { _ in call.future }
            let observed = chained ? step.then { $0 + 1 } : step
            observed.whenFulfilled { _ in bench_count_add() }
            head.fulfil(with: value)
            call.fulfil(with: value)
        }
    }
}
