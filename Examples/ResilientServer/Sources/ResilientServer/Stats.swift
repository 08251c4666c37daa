import Foundation
import Hummingbird
import Petal
import PetalHummingbird
import PetalNIO
import Synchronization

/// What `GET /stats` reports: the backend's calls, the requests' answers, and the server-side
/// latency of the requests answered since the previous `GET /stats` (each read starts a new
/// window), in milliseconds; and each 504 of the window, for `Scripts/stall-watch` to set beside
/// the machine's stalls.
final class Stats: Sendable {
    let completed = Atomic<Int>(0)
    let timedOut = Atomic<Int>(0)
    let shed = Atomic<Int>(0)
    let late = Atomic<Int>(0)
    /// From arrival to answer, of the requests admitted (200 and 504); and of each 504, how long
    /// after its deadline it was answered, and when (`CLOCK_BOOTTIME`, the clock a C program on
    /// the same machine reads). Sorted only when read: a window holds seconds of load.
    private let window = Mutex((latency: [Duration](), lateness: [Duration](), timedOutAt: [Int]()))

    /// Counts `response`, answered now to a request that arrived at `arrival` with `deadline`.
    func count(_ response: Response, arrival: ContinuousClock.Instant, deadline: Deadline) {
        let now = ContinuousClock.now
        switch response.status {
        case .ok:
            completed.add(1, ordering: .relaxed)
            if now > deadline.instant { late.add(1, ordering: .relaxed) }
        case .gatewayTimeout:
            timedOut.add(1, ordering: .relaxed)
        case .serviceUnavailable:
            shed.add(1, ordering: .relaxed)
            return
        default:
            return
        }
        window.withLock {
            $0.latency.append(now - arrival)
            if response.status == .gatewayTimeout {
                $0.lateness.append(now - deadline.instant)
                $0.timedOutAt.append(Self.bootTimeNanoseconds())
            }
        }
    }

    private static func bootTimeNanoseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }

    /// The counts, and the window's percentiles (`null` when it is empty), as sorted JSON.
    func report(_ backend: Backend) throws -> String {
        let (latency, lateness, timedOutAt) = window.withLock { window in
            defer { window = ([], [], []) }
            return window
        }
        // [answered at, ns of CLOCK_BOOTTIME; how late, µs] for each 504.
        let timeouts = zip(timedOutAt, lateness).map { [$0, Int($1 / .microseconds(1))] }
        let fields: [String: Any] = [
            "started": backend.started.load(ordering: .relaxed), "answered": backend.answered.load(ordering: .relaxed),
            "cancelled": backend.cancelled.load(ordering: .relaxed), "pending": backend.pending,
            "completed": completed.load(ordering: .relaxed), "timedOut": timedOut.load(ordering: .relaxed),
            "shed": shed.load(ordering: .relaxed), "late": late.load(ordering: .relaxed),
            "window": latency.count, "p50Ms": Self.percentile(50, of: latency) ?? NSNull(),
            "p99Ms": Self.percentile(99, of: latency) ?? NSNull(),
            "timeoutLatenessP99Ms": Self.percentile(99, of: lateness) ?? NSNull(), "timeouts": timeouts,
        ]
        return String(decoding: try JSONSerialization.data(withJSONObject: fields, options: .sortedKeys), as: UTF8.self)
    }

    private static func percentile(_ p: Int, of durations: [Duration]) -> Double? {
        guard !durations.isEmpty else { return nil }
        let value = durations.sorted()[(durations.count - 1) * p / 100]
        return Double(value.components.seconds) * 1e3 + Double(value.components.attoseconds) / 1e15
    }
}

/// Counts every answer of the routes after it, as it leaves for the client: first in the
/// router, so that it sees the 504s of `DeadlineMiddleware` too, and times each request from
/// the arrival `LoadShedder` stamped on it, against the deadline `deadlines` gives it.
struct StatsMiddleware<Context: RequestContext>: RouterMiddleware {
    let stats: Stats
    let deadlines: DeadlineMiddleware<Context>

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let arrival = RequestArrival.instant(in: request.headers) ?? .now
        let deadline = deadlines.deadline(of: request)
        let response: Response
        do {
            response = try await next(request, context)
        } catch let refusal as HTTPResponseError {
            // Petal's refusals leave the route as errors, which Hummingbird answers with their
            // status after every middleware: answered here instead, so that they are counted.
            response = try refusal.response(from: request, context: context)
        }
        stats.count(response, arrival: arrival, deadline: deadline)
        return response
    }
}
