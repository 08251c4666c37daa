import Hummingbird
import NIOCore

/// The service's routes: `GET /fanout/<variant>` for each variant, and `GET /stats`.
enum Routes {
    /// Adds every route to `router`, all sharing `backend`.
    static func add(to router: Router<FanoutContext>, backend: Backend) {
        add(PetalFanout(backend: backend), to: router, backend: backend)
        add(AsyncFanout(backend: backend), to: router, backend: backend)
        add(NIOFanout(backend: backend), to: router, backend: backend)
        add(CallbackFanout(backend: backend), to: router, backend: backend)
        router.get("stats") { _, _ in
            try Response.json(StatsReport(backend: backend).json())
        }
    }

    /// `GET /fanout/<name>` with `fanout`: 200 with the sum, 504 when the deadline passed, 400
    /// for bad parameters (thrown by `FanoutRequest`).
    ///
    /// Generic rather than over `any Fanout`: each route calls its variant directly, so the
    /// dispatch costs every variant the same (nothing).
    private static func add<F: Fanout>(_ fanout: F, to router: Router<FanoutContext>, backend: Backend) {
        let counters = backend.counters(of: F.variant)
        router.get("fanout/\(F.variant.name)") { request, context in
            let parameters = try FanoutRequest(request)
            guard let sum = try await fanout.sum(of: parameters, on: context.eventLoop) else {
                VariantCounters.increment(counters.timedOut)
                return Response.json(#"{"error": "deadline"}"# + "\n", status: .gatewayTimeout)
            }
            VariantCounters.increment(counters.completed)
            return Response.json(#"{"sum": \#(sum)}"# + "\n")
        }
    }
}

extension Response {
    /// A JSON response with `body`, written by hand: the answers are one number, and every
    /// variant pays the same for them.
    static func json(_ body: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
