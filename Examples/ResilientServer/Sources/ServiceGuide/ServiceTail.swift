import Hummingbird
import Logging
import Petal
import PetalHummingbird
import PetalServiceLifecycle
import ServiceLifecycle

// The service guide's section on the tail: a deadline from arrival, a limit that sheds, and the
// drain on shutdown, as a server's set-up reads.

extension Response {
    /// A JSON response with one number, as the guide's routes answer.
    static func json(_ sum: Int) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"sum": \#(sum)}"#)))
    }
}

/// The guide's fan-out for one request.
func fanOut(_ request: Request) -> Future<Int> { .fulfilled(with: 1) }

/// The time an outgoing call has, as the guide reads it.
func outgoingDeadline() -> (Duration?, String?) {
    // snippet: outgoing-deadline
    let left = Deadline.current?.remaining  // for the call's own timeout
    let header = Deadline.current?.grpcTimeout  // "19m": the grpc-timeout of an outgoing call
    // snippet end
    return (left, header)
}

/// The guide's adaptive limit.
func adaptiveLimit() -> ConcurrencyLimit {
    // snippet: adaptive-limit
    let adaptive = ConcurrencyLimit(
        adaptive: AdaptiveLimit(range: 2...8, initial: 8, tolerance: 1.15), queue: 2)
    // snippet end
    return adaptive
}

/// The guide's server with a limit that sheds, under a deadline from arrival.
func limitedServer(configuration: ApplicationConfiguration) -> some ApplicationProtocol {
    // snippet: deadline-middleware
    let router = Router()
    router.add(middleware: DeadlineMiddleware(budget: .milliseconds(20)))
    // snippet end

    // snippet: limit-route
    let limit = ConcurrencyLimit(maximum: 8, queue: 2)

    router.get("/fanout") { request, context -> Response in
        let sum = try await limit.run { fanOut(request) }.timeout(by: .current).value(cancellingUpstream: true)
        return Response.json(sum)
    }
    // snippet end

    // snippet: shedding-install
    let app = Application(router: router, server: .http1(shedding: limit), configuration: configuration)
    // snippet end
    return app
}

/// The guide's server that drains on shutdown.
func drainingServer(limit: ConcurrencyLimit, logger: Logger) async throws {
    let router = Router()
    router.add(middleware: DeadlineMiddleware(budget: .milliseconds(20)))
    // snippet: drain
    let drain = RequestDrain(gracePeriod: .seconds(5))
    router.get("/report") { request, context -> Response in
        let reply = drain.track(fanOut(request).timeout(by: .current))
        return try await Response.json(reply.value(cancellingUpstream: true))
    }
    let app = Application(router: router, server: .http1(shedding: limit))
    let group = ServiceGroup(services: [app, drain], gracefulShutdownSignals: [.sigterm], logger: logger)
    try await group.run()
    // snippet end
}
