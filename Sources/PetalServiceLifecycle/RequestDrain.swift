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

        /// The requests, in stripes of their own locks (see `DrainStripe`). Petal's pthread
        /// lock, not Synchronization.Mutex: ThreadSanitizer sees its ordering.
        private let stripes: [PosixLock<DrainStripe>]
        /// Read without a lock, for handlers that answer 503 while the drain runs: each stripe
        /// keeps its own flag under its lock, which is what tracking obeys.
        private let draining = Atomic<Bool>(false)
        private let progress = DrainProgress()

        /// Stripes: a power of two, comfortably more than a server's threads.
        static let stripeCount = 16

        /// A drain that, on graceful shutdown, waits at most `gracePeriod` (on `clock`) for the
        /// requests it asked to stop.
        public init(gracePeriod: Duration, clock: DeadlineClock = .continuous) {
            self.gracePeriod = gracePeriod
            self.clock = clock
            stripes = (0..<Self.stripeCount).map { [progress] _ in PosixLock(DrainStripe(progress: progress)) }
        }

        /// The futures tracked that are still pending.
        public var pendingCount: Int { stripes.reduce(0) { sum, stripe in sum + stripe.withLock { $0.count } } }

        /// Whether the graceful shutdown has begun: futures tracked from now on are asked to stop
        /// at once.
        public var isDraining: Bool { draining.load(ordering: .acquiring) }

        /// Keeps `future` until it resolves, to ask it to stop on graceful shutdown; asks it at
        /// once, on this thread, if the shutdown has begun. A future already resolved is not kept.
        ///
        /// Safe from any thread. The drain holds the future (not only a weak reference): a
        /// request's future is what stands for it, whoever else holds it or not.
        ///
        /// Cost: one allocation (the future's entry, which is also the whole context of the
        /// callback that drops it), one subscription, and two locks of one of 16 stripes, which
        /// threads tracking at once rarely share.
        ///
        /// - Returns: `future`, to await or chain where it is made:
        ///   `try await drain.track(quotes.fetch(for: request)).value`.
        @discardableResult
        public func track<Value: Sendable>(_ future: Future<Value>) -> Future<Value> {
            track(future, inStripe: Self.stripeOfThisThread)
        }

        /// ``track(_:)`` in stripe `index`: tests choose the stripe, to empty one and track into
        /// it again while another is pending.
        @discardableResult
        func track<Value: Sendable>(_ future: Future<Value>, inStripe index: Int) -> Future<Value> {
            let stripe = stripes[index]
            let request = TrackedFuture(future, stripe: stripe)
            let draining = stripe.withLock { stripe in
                stripe.link(request)
                // A draining stripe that had emptied is pending again: the drain waits for it
                // too. Counted under the stripe's lock, before the request can unlink.
                if stripe.isDraining && stripe.count == 1 { stripe.progress.add() }
                return stripe.isDraining
            }
            if draining { future.requestCancellation() }
            // Subscribed after linking, so that a resolution that runs it at once (or on another
            // thread meanwhile) finds the request to unlink. Carrying nothing: unlinking reads no
            // deadline, and a request's handler usually has one bound.
            future.whenResolvedCarryingNothing { [request] _ in request.resolved() }
            return future
        }

        /// What the drain waits for once it runs: stripes with requests pending, plus one while
        /// `run()` asks (for tests).
        var unfinishedShares: Int { progress.unfinished }

        /// This thread's stripe: chosen by its identity, so that no counter is shared to choose it.
        private static var stripeOfThisThread: Int {
            ThreadStripe.ofThisThread(bits: stripeCount.trailingZeroBitCount)
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
            // One share for this asking, until every stripe has been visited.
            progress.begin(fulfilling: idle)
            draining.store(true, ordering: .releasing)
            var asks: [TrackedRequest] = []
            for stripe in stripes {
                stripe.withLock { stripe in
                    stripe.isDraining = true
                    guard stripe.count > 0 else { return }
                    // Counted under the stripe's lock, before its last request can unlink.
                    progress.add()
                    asks += stripe.requests
                }
            }
            // Outside the locks: a request to stop may resolve its future here, inline.
            for request in asks { request.stop() }
            asks = []
            progress.finishedOne()
            if cancelled { return }
            _ = try? await idle.future.timeout(after: gracePeriod, clock: clock).value
        }
    }
#endif
