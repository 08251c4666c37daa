// The whole module is the NIO trait's: without it, this target compiles to nothing and its
// NIOCore dependency is neither resolved nor built.
#if NIO
    import NIOCore
    import Petal

    /// Runs Petal callbacks on a SwiftNIO event loop.
    ///
    /// Pass it wherever Petal takes a context, to run the callback on the loop's thread:
    ///
    /// ```swift
    /// reply.whenFulfilled(on: .eventLoop(channel.eventLoop)) { channel.writeAndFlush($0, promise: nil) }
    /// ```
    ///
    /// Where the work runs: when ``execute(_:)`` is called on the loop's own thread (a future
    /// resolved by a channel handler, say), the work runs there at once, inline, without a trip
    /// through the loop's task queue; from any other thread it is handed to the loop with
    /// `EventLoop.execute(_:)` and runs there later, in the order the loop takes its tasks.
    ///
    /// Inline work is stack-safe as Petal's `.inline` context is: callbacks nested deeply on the
    /// loop's thread are deferred to the outermost Petal callback of that thread, which is still
    /// on the loop, so a long chain on the loop cannot overflow its stack.
    ///
    /// Work handed to a loop that has shut down is dropped by the loop; Petal then cancels the
    /// future that work would have resolved, with a `DroppedWorkError` as its indirect error,
    /// rather than leaving it pending.
    public struct EventLoopExecutionContext: ExecutionContext {
        /// The loop the work runs on.
        public let eventLoop: any EventLoop

        /// A context that runs work on `eventLoop`.
        public init(_ eventLoop: any EventLoop) {
            self.eventLoop = eventLoop
        }

        /// Runs `work` on the event loop: at once when called on the loop's thread, otherwise as a
        /// task submitted to the loop.
        public func execute(_ work: @escaping @Sendable () -> Void) {
            if eventLoop.inEventLoop {
                // Through the inline context rather than called directly, so that work nested
                // deeply on this thread waits its turn behind the work deferred before it, as
                // `.inline` callbacks do; deferred or not, it stays on this thread, the loop's.
                InlineExecutionContext().execute(work)
            } else {
                eventLoop.execute(work)
            }
        }
    }

    extension ExecutionContext where Self == EventLoopExecutionContext {
        /// Runs callbacks on `eventLoop`: inline when already on its thread, otherwise submitted to it.
        public static func eventLoop(_ eventLoop: any EventLoop) -> EventLoopExecutionContext {
            EventLoopExecutionContext(eventLoop)
        }
    }
#endif
