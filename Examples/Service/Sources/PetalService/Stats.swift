import Foundation
import Petal

/// What `GET /stats` reports, per variant.
struct VariantStats: Codable, Sendable {
    /// Backend calls made.
    var started: Int
    /// Backend calls that answered.
    var answered: Int
    /// Backend calls cancelled before answering.
    var cancelled: Int
    /// Backend calls neither answered nor cancelled: in flight, or leaked once the load stops.
    var pending: Int
    /// Requests answered 200.
    var completed: Int
    /// Requests answered 504.
    var timedOut: Int
    /// Requests answered 503 at once: refused by the concurrency limit, or during shutdown.
    var shed: Int
    /// Requests answered 503 because a backend call failed (an outage, `--faults`).
    var failed: Int
    /// Requests answered 200 after their deadline (counted in `completed` too): 0 for a variant
    /// whose deadline counts from arrival, which answers 504 instead.
    var late: Int
    /// Extra copies of backend calls sent (hedges).
    var hedges: Int
    /// The median server-side latency, in ms, of the requests answered 200 or 504 (or 503 for a
    /// backend's failure) since the previous `GET /stats` (`null` if none was).
    var p50Milliseconds: Double?
    /// Their 99th percentile, in ms.
    var p99Milliseconds: Double?
    /// How many requests that window holds.
    var windowCount: Int
    /// The concurrency limit's maximum now (`limited` only, absent for the others: it moves
    /// with the load).
    var limit: Int?
    /// The circuit breaker's state, `closed`, `open` or `half-open` (`resilient` only).
    var breaker: String?

    enum CodingKeys: String, CodingKey {
        case started, answered, cancelled, pending, completed, timedOut, shed, failed, late, hedges, limit, breaker
        case p50Milliseconds = "p50_ms"
        case p99Milliseconds = "p99_ms"
        case windowCount = "window"
    }
}

/// Where the server is in its fault schedule (`--faults`) as `/stats` is read: a sampler labels
/// each sample with the phase the server itself was in.
struct FaultsStats: Codable, Sendable {
    /// Seconds since the server's start, from which the schedule counts.
    var elapsedSeconds: Double
    /// The index of the phase now, counting the calm phases between the faults (0 with none).
    var phase: Int
    /// `calm`, `outage`, `hang` or `slow`.
    var fault: String

    enum CodingKeys: String, CodingKey {
        case phase, fault
        case elapsedSeconds = "elapsed_s"
    }

    init(_ schedule: FaultSchedule) {
        let elapsed = schedule.elapsed()
        let phase = schedule.phase(at: elapsed)
        elapsedSeconds = Double(elapsed) / 1e9
        self.phase = phase
        fault = schedule.phases[phase].name
    }
}

/// The body of `GET /stats`: every variant's counters, Petal's own, and the fault phase.
struct StatsReport: Codable, Sendable {
    /// Per variant, by its route name.
    var variants: [String: VariantStats]
    /// Petal's process-wide diagnostics, by name (see `PetalCounters`).
    var petal: [String: Int]
    /// The fault schedule's phase now.
    var faults: FaultsStats

    /// The counts now, and the latency since the previous report (a new window starts).
    init(backend: Backend, fanouts: [any Fanout]) {
        var variants: [String: VariantStats] = [:]
        for fanout in fanouts {
            let variant = type(of: fanout).variant
            var stats = backend.counters(of: variant).snapshot()
            stats.hedges = fanout.hedgesStarted
            stats.limit = fanout.currentLimit
            stats.breaker = fanout.breakerState
            variants[variant.name] = stats
        }
        self.variants = variants
        petal = Dictionary(uniqueKeysWithValues: PetalCounters.all.map { ($0.name, $0.read()) })
        faults = FaultsStats(backend.faults)
    }

    /// Pretty-printed JSON with sorted keys, so that the output is stable and diffable.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
