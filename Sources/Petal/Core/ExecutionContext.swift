import Dispatch

/// Where a callback runs.
///
/// Every observing method takes a context; the default, ``InlineExecutionContext`` (`.inline`),
/// runs the callback on the thread that resolves the future, or on the subscribing thread when
/// the future is already resolved. Any other context receives the callback as work to run
/// later: `DispatchQueue` conforms out of the box, and you can conform your own types (an event
/// loop, an operation queue, a test recorder).
///
/// It is named so that it shadows nothing in the standard library, Foundation, Dispatch or Swift
/// concurrency (whose `Executor` is a different thing).
public protocol ExecutionContext: Sendable {
    /// Runs `work` once, at a time and on a thread of the context's choosing.
    func execute(_ work: @escaping @Sendable () -> Void)
}

/// Runs callbacks on the current thread, at once: the fastest context and the default.
///
/// Inline execution is stack-safe. When callbacks nest (a callback resolves a promise whose
/// callbacks resolve another, and so on) past a small depth, further callbacks are deferred to
/// the outermost callback frame of the same thread, which runs them, in order, before it returns.
/// They never move to another thread.
///
/// An empty struct, so passing `.inline` costs nothing: no object, no reference counting.
@frozen
public struct InlineExecutionContext: ExecutionContext {
    /// The inline context; `.inline` reads better at call sites.
    @inlinable
    public init() {}

    /// Runs `work` now on this thread, or, when inline callbacks are already nested deeply on
    /// this thread, as soon as the outermost of them returns.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        Trampoline.run(work)
    }
}

extension ExecutionContext where Self == InlineExecutionContext {
    /// Runs callbacks on the resolving (or subscribing) thread, stack-safely.
    @inlinable
    public static var inline: InlineExecutionContext { InlineExecutionContext() }
}

extension DispatchQueue: ExecutionContext {
    /// Submits `work` to the queue asynchronously.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}
