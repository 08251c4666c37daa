import Hummingbird
import NIOCore
import Petal
import PetalNIO
import PetalServiceLifecycle

/// The service's routes: `GET /fanout/<variant>` for each variant, and `GET /stats`.
enum Routes {
    /// Adds every route to `router`, all sharing `backend`; the Petal variants' requests are
    /// tracked in `drain`, and `limited`'s and `resilient`'s requests go through `limit`.
    static func add(
        to router: Router<BasicRequestContext>, backend: Backend, drain: RequestDrain, limit: ConcurrencyLimit
    ) {
        let petal = PetalFanout(backend: backend, drain: drain)
        let async = AsyncFanout(backend: backend)
        let nio = NIOFanout(backend: backend)
        let callbacks = CallbackFanout(backend: backend)
        let hedged = HedgedFanout(backend: backend, drain: drain)
        let limited = LimitedFanout(backend: backend, drain: drain, limit: limit)
        let resilient = ResilientFanout(backend: backend, drain: drain, limit: limit)
        let batch = BatchFanout(backend: backend, drain: drain)
        let guide = GuideFanout(backend: backend, drain: drain)
        add(petal, to: router, backend: backend, drain: drain)
        add(async, to: router, backend: backend, drain: drain)
        add(nio, to: router, backend: backend, drain: drain)
        add(callbacks, to: router, backend: backend, drain: drain)
        add(hedged, to: router, backend: backend, drain: drain)
        add(limited, to: router, backend: backend, drain: drain)
        add(resilient, to: router, backend: backend, drain: drain)
        add(batch, to: router, backend: backend, drain: drain)
        add(guide, to: router, backend: backend, drain: drain)
        let fanouts: [any Fanout] = [petal, async, nio, callbacks, hedged, limited, resilient, batch, guide]
        router.get("stats") { _, _ in
            try Response.json(StatsReport(backend: backend, fanouts: fanouts).json())
        }
    }

    /// `GET /fanout/<name>` with `fanout`: 200 with the sum, 504 when the deadline passed, 503
    /// when refused (the limit is full, or the server is shutting down) or when a backend call
    /// failed (an outage, `--faults`: counted as `failed`), 400 for bad parameters
    /// (thrown by `FanoutRequest`). The latency of the 200s, 504s and failures' 503s goes to
    /// `/stats`' window.
    ///
    /// Generic rather than over `any Fanout`: each route calls its variant directly, so the
    /// dispatch costs every variant the same (nothing).
    private static func add<F: Fanout>(
        _ fanout: F, to router: Router<BasicRequestContext>, backend: Backend, drain: RequestDrain
    ) {
        let counters = backend.counters(of: F.variant)
        router.get("fanout/\(F.variant.name)") { request, _ in
            let start = ContinuousClock.now
            // Stamped on the event loop by the shedder as the head was read: the time a request
            // waits for a task, under a flood, counts against its deadline.
            let arrival = RequestArrival.instant(in: request.headers).map { min($0, start) } ?? start
            // On the clock of the loop the calls are made and answered on (see `Backend.clock`).
            let deadline = Deadline(
                after: FanoutRequest.deadline, from: F.deadlineFromArrival ? arrival : start, clock: backend.clock)
            let parameters = try FanoutRequest(request)
            let sum: Int?
            do {
                guard !drain.isDraining else { throw ShuttingDownError() }
                let loop = backend.nextLoop()
                if F.deadlineFromArrival {
                    sum = try await Deadline.withValue(deadline) { try await fanout.sum(of: parameters, on: loop) }
                } else {
                    sum = try await fanout.sum(of: parameters, on: loop)
                }
            } catch is ConcurrencyLimitExceededError {
                VariantCounters.increment(counters.shed)
                return Response.json(#"{"error": "over the concurrency limit"}"# + "\n", status: .serviceUnavailable)
            } catch is ShuttingDownError {
                VariantCounters.increment(counters.shed)
                return Response.json(#"{"error": "shutting down"}"# + "\n", status: .serviceUnavailable)
            } catch is BackendUnavailableError {
                // Timed too: how fast a request fails is what a fault's p99 shows.
                counters.latency.record(ContinuousClock.now - start)
                VariantCounters.increment(counters.failed)
                return Response.json(#"{"error": "backend unavailable"}"# + "\n", status: .serviceUnavailable)
            }
            // Read once, for the answer and the count alike. With the deadline from arrival, a
            // sum that comes after it is no success: the client stopped waiting, so the answer
            // is the deadline's 504, as PetalHummingbird's DeadlineMiddleware answers (under a
            // flood a few sums were ready just before the deadline and answered after it).
            let passed = deadline.hasPassed
            let answer = F.deadlineFromArrival && passed ? nil : sum
            let elapsed = ContinuousClock.now - start
            counters.latency.record(elapsed)
            fanout.answered(after: elapsed, timedOut: answer == nil)
            guard let sum = answer else {
                VariantCounters.increment(counters.timedOut)
                return Response.json(#"{"error": "deadline"}"# + "\n", status: .gatewayTimeout)
            }
            VariantCounters.increment(counters.completed)
            if passed { VariantCounters.increment(counters.late) }
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
