#if NIO
    import NIOCore
    import Petal

    extension Future where Value: Sendable {
        /// A Petal future that resolves as `eventLoopFuture` completes.
        ///
        /// ```swift
        /// let row = Future(connection.query(sql)).then { try decode(Row.self, from: $0) }
        /// ```
        ///
        /// A success fulfils the Petal future with the value, and a failure rejects it with the
        /// error, except a `FutureCancelledError` (what `eventLoopFuture(on:)` fails with for a
        /// cancelled Petal future), which cancels it with that error's indirect error, so a
        /// cancellation survives a round trip through NIO.
        ///
        /// When and where: the Petal future resolves on the event loop's thread, when the
        /// `EventLoopFuture` completes, so callbacks subscribed with `.inline` run on the loop
        /// (pass a context to run them elsewhere). Converting from another thread costs one task on
        /// the loop, which is where NIO adds the callback that resolves the Petal future.
        ///
        /// An `EventLoopFuture` that never completes leaves this future pending: the callback NIO
        /// holds keeps the Petal promise alive for as long as NIO keeps the `EventLoopFuture`, so
        /// the abandonment rule never fires. Bound such a wait with `timeout(after:)`. Should the
        /// loop have shut down before the callback is added, NIO drops the callback unrun, and
        /// this future is cancelled with an `AbandonedPromiseError` naming this call's site.
        ///
        /// - Parameters:
        ///   - eventLoopFuture: The NIO future to follow.
        ///   - fileID: The call site, named by diagnostics; leave the default.
        ///   - line: The call site's line, named by diagnostics; leave the default.
        public init(_ eventLoopFuture: EventLoopFuture<Value>, fileID: StaticString = #fileID, line: UInt = #line) {
            let promise = Promise<Value>(fileID: fileID, line: line)
            eventLoopFuture.whenComplete { promise.resolve(with: Outcome($0)) }
            self = promise.future
        }
    }

    extension Outcome {
        /// The outcome that a NIO result stands for: a `FutureCancelledError` is a cancellation.
        init(_ result: Result<Value, any Error>) {
            switch result {
            case .success(let value): self = .fulfilled(value)
            case .failure(let error as FutureCancelledError): self = .cancelled(indirectError: error.indirectError)
            case .failure(let error): self = .rejected(error)
            }
        }
    }
#endif
