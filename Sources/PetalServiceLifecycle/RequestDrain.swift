// The whole module is the ServiceLifecycle trait's: without it, this target compiles to nothing
// and swift-service-lifecycle is neither resolved nor built.
#if ServiceLifecycle
    import Petal
    import ServiceLifecycle
    import Synchronization

    /// The requests in flight, as futures, for a graceful shutdown: a swift-service-lifecycle
    /// `Service` that, when the shutdown begins, asks each of them to stop and waits until none
    /// is pending, or until a grace period has passed.
    ///
    /// A server tracks each request's future (``track(_:)``); the drain keeps it while it is
    /// pending and drops it when it resolves, so a server that runs for months holds as many as
    /// it has requests in flight. On graceful shutdown, ``run()`` calls `requestCancellation()`
    /// on every future tracked, once each: Petal passes the request on to the work the future
    /// waits for (a backend call, a hedge, a limit's queue), so a request in flight ends in
    /// moments instead of running to its deadline. A future tracked after that is asked at once.
    ///
    /// Run it in a `ServiceGroup` after the Hummingbird `Application` it drains:
    ///
    /// ```swift
    /// let drain = RequestDrain(gracePeriod: .seconds(10))
    /// let group = ServiceGroup(
    ///     services: [app, drain], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// A group shuts its services down one at a time, last first, each after the one after it
    /// returned. So the drain goes first: it asks the requests in flight to stop (and those that
    /// arrive meanwhile, at once; a handler may answer them 503 itself, reading ``isDraining``),
    /// and returns when none is pending. Then the application stops accepting, and waits for
    /// requests that have already answered. Listed before the application, the drain would be
    /// asked only once the application had waited for every request to finish on its own.
    public final class RequestDrain: Service, Sendable {
        /// How long ``run()`` waits, once it has asked the requests to stop, for them to resolve.
        public let gracePeriod: Duration
        /// The clock the grace period is kept by: real time unless a test's.
        public let clock: DeadlineClock

        private struct State {
            /// Each pending future's request to stop, by the number it was tracked under.
            var pending: [UInt64: @Sendable () -> Void] = [:]
            var nextNumber: UInt64 = 0
            var isDraining = false
            /// Fulfilled when the drain has begun and nothing is pending.
            var idle: Promise<Void>?
        }

        private let state = Mutex(State())

        /// A drain that, on graceful shutdown, waits at most `gracePeriod` (on `clock`) for the
        /// requests it asked to stop.
        public init(gracePeriod: Duration, clock: DeadlineClock = .continuous) {
            self.gracePeriod = gracePeriod
            self.clock = clock
        }

        /// The futures tracked that are still pending.
        public var pendingCount: Int { state.withLock { $0.pending.count } }

        /// Whether the graceful shutdown has begun: futures tracked from now on are asked to stop
        /// at once.
        public var isDraining: Bool { state.withLock { $0.isDraining } }

        /// Keeps `future` until it resolves, to ask it to stop on graceful shutdown; asks it at
        /// once, on this thread, if the shutdown has begun. A future already resolved is not kept.
        ///
        /// Safe from any thread. The drain holds the future (not only a weak reference): a
        /// request's future is what stands for it, whoever else holds it or not.
        ///
        /// - Returns: `future`, to await or chain where it is made:
        ///   `try await drain.track(quotes.fetch(for: request)).value`.
        @discardableResult
        public func track<Value: Sendable>(_ future: Future<Value>) -> Future<Value> {
            let (number, draining) = state.withLock { state in
                let number = state.nextNumber
                state.nextNumber += 1
                state.pending[number] = { future.requestCancellation() }
                return (number, state.isDraining)
            }
            if draining { future.requestCancellation() }
            // Subscribed after the insertion, so that a resolution that runs it at once (or on
            // another thread meanwhile) finds the entry to remove.
            future.whenResolved { [self] _ in resolved(number) }
            return future
        }

        private func resolved(_ number: UInt64) {
            let idle = state.withLock { state -> Promise<Void>? in
                state.pending[number] = nil
                guard state.pending.isEmpty, let idle = state.idle else { return nil }
                state.idle = nil
                return idle
            }
            idle?.fulfil(with: ())
        }

        /// Waits for the graceful shutdown, then asks every pending future to stop, and returns
        /// when none is pending or ``gracePeriod`` has passed, whichever is first.
        ///
        /// Cancelled (a `ServiceGroup` cancels its services when one fails, or when its graceful
        /// shutdown took too long), it asks the futures to stop and returns at once.
        public func run() async throws {
            var cancelled = false
            do { try await gracefulShutdown() } catch { cancelled = true }
            let idle = Promise<Void>()
            let asks = state.withLock { state -> [@Sendable () -> Void] in
                state.isDraining = true
                if state.pending.isEmpty {
                    idle.fulfil(with: ())
                } else {
                    state.idle = idle
                }
                return Array(state.pending.values)
            }
            // Outside the lock: a request to stop may resolve its future here, inline.
            for ask in asks { ask() }
            if cancelled { return }
            _ = try? await idle.future.timeout(after: gracePeriod, clock: clock).value
        }
    }
#endif
