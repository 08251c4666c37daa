#if NIO
    import NIOPosix
    import Petal

    extension BlockingWaits {
        /// Forbids blocking waits on SwiftNIO's event-loop threads (those of a
        /// `MultiThreadedEventLoopGroup`, which servers such as Hummingbird and Vapor run on): a
        /// `Future.wait()` there stops the program with a message naming the loop, as NIO's
        /// own `EventLoopFuture.wait()` does, instead of stalling the loop or deadlocking it.
        ///
        /// Installs `BlockingWaits.check`, replacing any check installed before. Call it
        /// once, at start-up; the check costs a thread-local read per blocking wait.
        public static func forbidOnEventLoops() {
            check = {
                MultiThreadedEventLoopGroup.currentEventLoop.map { "it runs the event loop \($0)" }
            }
        }
    }
#endif
