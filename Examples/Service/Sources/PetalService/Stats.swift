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
    /// Requests answered 200 after their deadline (counted in `completed` too).
    var late: Int
    /// Extra copies of backend calls sent (hedges).
    var hedges: Int
    /// The median server-side latency, in ms, of the requests answered 200 or 504 since the
    /// previous `GET /stats` (`null` if none was).
    var p50Milliseconds: Double?
    /// Their 99th percentile, in ms.
    var p99Milliseconds: Double?
    /// How many requests that window holds.
    var windowCount: Int
    /// The concurrency limit's maximum now (`limited` only, absent for the others: it moves
    /// with the load).
    var limit: Int?

    enum CodingKeys: String, CodingKey {
        case started, answered, cancelled, pending, completed, timedOut, shed, late, hedges, limit
        case p50Milliseconds = "p50_ms"
        case p99Milliseconds = "p99_ms"
        case windowCount = "window"
    }
}

/// The body of `GET /stats`: every variant's counters, and Petal's own.
struct StatsReport: Codable, Sendable {
    /// Per variant, by its route name.
    var variants: [String: VariantStats]
    /// Petal's process-wide diagnostics, by name (see `PetalCounters`).
    var petal: [String: Int]

    /// The counts now, and the latency since the previous report (a new window starts).
    init(backend: Backend, fanouts: [any Fanout]) {
        var variants: [String: VariantStats] = [:]
        for fanout in fanouts {
            let variant = type(of: fanout).variant
            var stats = backend.counters(of: variant).snapshot()
            stats.hedges = fanout.hedgesStarted
            stats.limit = fanout.currentLimit
            variants[variant.name] = stats
        }
        self.variants = variants
        petal = Dictionary(uniqueKeysWithValues: PetalCounters.all.map { ($0.name, $0.read()) })
    }

    /// Pretty-printed JSON with sorted keys, so that the output is stable and diffable.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
