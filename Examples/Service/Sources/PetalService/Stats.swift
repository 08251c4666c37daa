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
}

/// The body of `GET /stats`: every variant's counters, and Petal's own.
struct StatsReport: Codable, Sendable {
    /// Per variant, by its route name.
    var variants: [String: VariantStats]
    /// Petal's process-wide diagnostics, by name (see `PetalCounters`).
    var petal: [String: Int]

    /// The counts now.
    init(backend: Backend) {
        variants = Dictionary(
            uniqueKeysWithValues: Variant.allCases.map { ($0.name, backend.counters(of: $0).snapshot) })
        petal = Dictionary(uniqueKeysWithValues: PetalCounters.all.map { ($0.name, $0.read()) })
    }

    /// Pretty-printed JSON with sorted keys, so that the output is stable and diffable.
    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(self), as: UTF8.self) + "\n"
    }
}
