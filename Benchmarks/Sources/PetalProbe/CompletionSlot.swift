import CBenchSupport

/// Where "completion handler" keeps a completion until its work answers, as the example
/// service's `BackendCall` keeps a call's handler: a stored property of the closure's own type
/// (so no reabstraction thunk is made), in an object that has escaped, so the closure's context
/// is made as in a service: on the heap, unless the closure captures exactly one class
/// reference, which is then its own context.
final class CompletionSlot {
    private var completion: ((Int) -> Void)?

    init() {
        bench_escape(UnsafeRawPointer(Unmanaged.passUnretained(self).toOpaque()))
    }

    /// Keeps `completion` until ``answer(with:)``.
    @inline(__always)
    func keep(_ completion: @escaping (Int) -> Void) {
        self.completion = completion
    }

    /// Calls the kept completion with `value`, then drops it.
    @inline(__always)
    func answer(with value: Int) {
        completion.unsafelyUnwrapped(value)
        completion = nil
    }
}
