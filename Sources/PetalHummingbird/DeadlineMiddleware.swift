// The Hummingbird trait's, as the rest of the module.
#if Hummingbird
    import HTTPTypes
    import Hummingbird
    import Petal
    import PetalNIO

    /// Gives each request a Petal `Deadline` counted from its arrival, and runs the rest of the
    /// request inside it; answers 504 Gateway Timeout, without running the rest, to a request
    /// whose deadline has already passed when it gets here.
    ///
    /// ```swift
    /// router.add(middleware: DeadlineMiddleware(budget: .milliseconds(250)))
    /// ```
    ///
    /// The deadline is the request's arrival plus `budget`, or, when the request carries a
    /// `grpc-timeout` header, the earlier of that and its arrival plus the header's time: a
    /// caller may shorten a request's time, never extend it. The arrival is the stamp of the
    /// PetalNIO `LoadShedder` (see ``HummingbirdCore/HTTPServerBuilder/http1(shedding:refusal:sheddable:onShed:configuration:)``),
    /// which counts the time a request waited for a task and in the middleware before this one;
    /// without a shedder in the pipeline, it is when the request gets here. A stamp later than
    /// now, which only a client could have made, counts as now: a forged stamp can shorten its
    /// own request's time, never extend it.
    ///
    /// Inside, `Deadline.current` is the deadline (or an earlier one bound outside): every
    /// Petal timeout, hedge, limit wait and retry of the request ends by it, and its
    /// `remaining` (or `grpcTimeout`, the header's form) is what an outgoing call
    /// passes on. An error that Petal ended with the deadline's `FutureTimeoutError`
    /// and that the route let through is answered with 504 too, and so is a success (2xx) the
    /// route returned after the deadline had passed: its client had stopped waiting for it.
    ///
    /// Add it first, or after the middleware that must run for every request (logging, say):
    /// the middleware before it spend the request's time but run without its deadline.
    public struct DeadlineMiddleware<Context: RequestContext>: RouterMiddleware {
        /// The time each request has from its arrival.
        public let budget: Duration
        /// Whether a `grpc-timeout` header shortens a request's deadline.
        public let honoursGRPCTimeout: Bool
        /// The clock deadlines are kept by: real time unless a test's.
        public let clock: DeadlineClock

        /// A middleware that gives each request `budget` from its arrival, shortened by a
        /// `grpc-timeout` header unless `honouringGRPCTimeout` is `false`, on `clock`.
        public init(budget: Duration, honouringGRPCTimeout: Bool = true, clock: DeadlineClock = .continuous) {
            self.budget = budget
            self.honoursGRPCTimeout = honouringGRPCTimeout
            self.clock = clock
        }

        /// The deadline of `request`, read on the clock's time now.
        public func deadline(of request: Request) -> Deadline {
            let now = clock.now
            let arrival = RequestArrival.instant(in: request.headers).map { Swift.min($0, now) } ?? now
            let deadline = Deadline(after: budget, from: arrival, clock: clock)
            guard honoursGRPCTimeout, let text = request.headers[grpcTimeoutField] else { return deadline }
            return deadline.earlier(of: Deadline(grpcTimeout: text, from: arrival, clock: clock))
        }

        /// Runs `next` inside the request's deadline, or answers 504 if it has passed.
        ///
        /// `next` runs on this task, with the deadline bound as a task-local.
        public func handle(
            _ request: Request, context: Context, next: (Request, Context) async throws -> Response
        ) async throws -> Response {
            let deadline = deadline(of: request)
            if deadline.hasPassed { return Response(status: .gatewayTimeout) }
            do {
                let response = try await Deadline.withValue(deadline) { try await next(request, context) }
                // A success the client stopped waiting for is no success: answered as the
                // deadline's end, so that no 2xx ever leaves after its request's deadline.
                guard response.status.kind == .successful, deadline.hasPassed else { return response }
                return Response(status: .gatewayTimeout)
            } catch let error as FutureTimeoutError where error.deadline == deadline.instant {
                return Response(status: .gatewayTimeout)
            }
        }
    }

    /// The `grpc-timeout` header's name (a generic type cannot have it as a static property).
    private let grpcTimeoutField = HTTPField.Name("grpc-timeout")!
#endif
