import Petal

/// The ``FutureTimeoutError`` a future was rejected with, or `nil` if it is pending, resolved
/// otherwise, or rejected with another error.
func timeoutError<Value>(_ future: Future<Value>) -> FutureTimeoutError? {
    guard let outcome = future.peek(), outcome.isRejected else { return nil }
    return outcome.error as? FutureTimeoutError
}

/// Whether `future` was rejected with `deadline`'s ``Deadline/exceededError``: its instant, and
/// no duration.
func isExceeded<Value>(_ future: Future<Value>, by deadline: Deadline) -> Bool {
    guard let error = timeoutError(future) else { return false }
    return error.deadline == deadline.instant && error.duration == nil
}

/// A value the callbacks of one test write and the test reads after they ran inline.
final class Slot<Value>: @unchecked Sendable {
    // @unchecked: written by callbacks that run inline on the test's thread, then read there.
    var value: Value
    init(_ value: Value) { self.value = value }
}

/// A body that counts its runs in `runs` and returns a future fulfilled with `value`.
func counted(_ runs: Counter, returning value: Int) -> @Sendable () -> Future<Int> {
    {
        runs.increment()
        return .fulfilled(with: value)
    }
}

/// A body that counts its runs in `runs` and returns a future rejected with `TestError(run)`,
/// `run` counting from 1.
func failing(_ runs: Counter) -> @Sendable () -> Future<Int> {
    {
        runs.increment()
        return .rejected(with: TestError(runs.value))
    }
}
