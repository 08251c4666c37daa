// The whole module is the Tracing trait's: without it, this target compiles to nothing and its
// swift-distributed-tracing dependency is neither resolved nor built.
#if Tracing
    import Instrumentation
    import Petal

    /// Carries swift-service-context's `ServiceContext` (a trace's span, baggage) from where a
    /// Petal callback is subscribed to where it runs, so that a trace does not break at every
    /// step of a chain, as it does across NIO's futures.
    ///
    /// Install it once, at start-up: ``Petal/CallbackContext/carryServiceContext()``.
    public struct ServiceContextCarrier: CallbackContextCarrier {
        /// A carrier of `ServiceContext.current`.
        public init() {}

        /// `ServiceContext.current` where a callback is subscribed, or `nil` (nothing to carry)
        /// where there is none.
        public func capture() -> (any Sendable)? {
            ServiceContext.current
        }

        /// Runs `body` with `captured` as `ServiceContext.current`.
        public func run(with captured: any Sendable, _ body: () -> Void) {
            ServiceContext.withValue(captured as? ServiceContext, operation: body)
        }
    }

    extension CallbackContext {
        /// Makes every callback and chaining closure handed to Petal from now on run with the
        /// `ServiceContext` that was current where it was handed over: across `then`, `recover`,
        /// combinators, timeouts, retries and execution-context hops, wherever it runs.
        ///
        /// Installs a ``ServiceContextCarrier`` as ``Petal/CallbackContext/carrier``. A
        /// subscription with no current `ServiceContext` is stored as given; one with a context
        /// pays a closure allocation and a task-local binding when it runs (the benchmark
        /// measures both).
        public static func carryServiceContext() {
            carrier = ServiceContextCarrier()
        }
    }
#endif
