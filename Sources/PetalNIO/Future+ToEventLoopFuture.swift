#if NIO
    import NIOCore
    import Petal

    extension Future where Value: Sendable {
        /// An `EventLoopFuture` on `eventLoop` that completes as this future resolves.
        ///
        /// ```swift
        /// func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        ///     lookUp(key).eventLoopFuture(on: context.eventLoop).whenSuccess { ... }
        /// }
        /// ```
        ///
        /// A fulfilment succeeds the `EventLoopFuture` with the value and a rejection fails it with
        /// the error. NIO futures cannot be cancelled, so a cancellation fails it with a
        /// `FutureCancelledError` that carries the indirect error (an upstream failure, an
        /// abandoned promise), the error `Outcome.get()` throws; `Future(_:)` turns that error back
        /// into a cancellation.
        ///
        /// When and where: a future that has already resolved gives an already completed
        /// `EventLoopFuture`, without a task on the loop. Otherwise the `EventLoopFuture` completes
        /// when this future resolves, and its callbacks run on `eventLoop`, as NIO's always do
        /// (from another thread, completing it costs one task on the loop).
        ///
        /// The `EventLoopPromise` behind it is always completed, never leaked: this future always
        /// resolves, because a Petal promise dropped unresolved cancels its future. Shut `eventLoop`
        /// down only once this future has resolved: a loop that has shut down drops the task that
        /// would complete the `EventLoopFuture`, so it never completes, and in NIO's debug builds
        /// its leaked-promise check stops the process when the `EventLoopFuture` is released.
        ///
        /// - Parameters:
        ///   - eventLoop: The loop the returned future belongs to.
        ///   - file: The call site, named by NIO's leaked-promise diagnostics; leave the default.
        ///   - line: The call site's line, named by NIO's leaked-promise diagnostics; leave the default.
        public func eventLoopFuture(
            on eventLoop: any EventLoop, file: StaticString = #fileID, line: UInt = #line
        ) -> EventLoopFuture<Value> {
            if let outcome = peek() { return eventLoop.makeCompletedFuture(Result(outcome)) }
            let promise = eventLoop.makePromise(of: Value.self, file: file, line: line)
            // Inline: NIO's promise hops to its own loop when completed from another thread, so a
            // Petal context here would only add a second hop.
            whenResolved { promise.completeWith(Result($0)) }
            return promise.futureResult
        }
    }

    extension Result where Failure == any Error {
        /// The NIO result that `outcome` stands for: a cancellation is a `FutureCancelledError`.
        init(_ outcome: Outcome<Success>) {
            self.init(catching: outcome.get)
        }
    }
#endif
