import NIOCore
import Synchronization

/// What a fault does to the backend calls that start while it lasts.
enum FaultKind: String, CaseIterable, Sendable {
    /// Every call fails at once, with ``BackendUnavailableError``: a backend that is down and
    /// refuses connections.
    case outage
    /// No call answers; each holds its handler until it is cancelled: a backend that accepts
    /// and never replies.
    case hang
    /// Calls answer in 5 to 15 ms instead of 1 to 5: a backend whose latency shifted past what
    /// a request's 20 ms deadline leaves room to hedge (a copy sent after the slowest ordinary
    /// answer, 15 ms, cannot answer in time).
    case slow
    /// Calls answer in 2 to 8 ms instead of 1 to 5: a latency shift the deadline leaves room to
    /// hedge, past the fixed 5 ms delay of `hedged` (half the calls outlive it).
    case shift
}

/// The faults a server injects into its backends, `--faults KIND@STARTs+LENGTHs[,...]`, and the
/// phases they cut its run into, counted from the server's start.
///
/// The backends consult it on every call, so the lookup is cheap and takes no lock: the phases
/// are computed once, when the command line is read, into an immutable array of contiguous
/// spans (calm ones between the faults), and a call costs one clock read, one relaxed load of
/// the start, and a scan of that short array. Without faults a call reads no clock at all.
final class FaultSchedule: Sendable {
    /// One span of the run: from `start` to `end` nanoseconds after the server's start, with
    /// `kind` injected, or calm (`nil`). The last phase ends at `UInt64.max`.
    struct Phase: Equatable, Sendable {
        var start: UInt64
        var end: UInt64
        var kind: FaultKind?

        /// `calm`, or the fault's name.
        var name: String { kind?.rawValue ?? "calm" }
    }

    /// The longest time a fault may start at or last, in seconds: a day is far past any load.
    static let longestSeconds = 86_400

    /// The phases, in order, contiguous from 0 to `UInt64.max`: one calm phase with no faults.
    let phases: [Phase]
    /// Whether any fault is scheduled: without one, ``phase(at:)`` is never asked.
    let isEmpty: Bool
    /// `NIODeadline.uptimeNanoseconds` at the server's start, plus one (0: not started yet).
    private let origin = Atomic<UInt64>(0)

    /// No faults: one calm phase.
    convenience init() {
        self.init(faults: [])
    }

    /// The faults given, as `(kind, start, length)` in nanoseconds, sorted and not overlapping.
    private init(faults: [(kind: FaultKind, start: UInt64, length: UInt64)]) {
        var phases: [Phase] = []
        var time: UInt64 = 0
        for fault in faults {
            if fault.start > time { phases.append(Phase(start: time, end: fault.start, kind: nil)) }
            phases.append(Phase(start: fault.start, end: fault.start + fault.length, kind: fault.kind))
            time = fault.start + fault.length
        }
        phases.append(Phase(start: time, end: .max, kind: nil))
        self.phases = phases
        isEmpty = faults.isEmpty
    }

    /// Reads `text`, `KIND@STARTs+LENGTHs[,...]`: KIND `outage`, `hang`, `slow` or
    /// `shift`; START and
    /// LENGTH in seconds, digits with an optional fraction (`1`, `2.5`), followed by `s`; START
    /// from 0 and LENGTH above 0, both up to a day. The faults may be given in any order but
    /// may not overlap (one may start where another ends).
    ///
    /// - Throws: ``Options/Problem`` saying which entry is wrong and why.
    convenience init(parsing text: String) throws {
        guard !text.isEmpty else { throw Self.problem("is empty") }
        var faults: [(kind: FaultKind, start: UInt64, length: UInt64)] = []
        for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
            faults.append(try Self.fault(String(entry)))
        }
        faults.sort { $0.start < $1.start }
        for (earlier, later) in zip(faults, faults.dropFirst()) where later.start < earlier.start + earlier.length {
            throw Self.problem(
                "\(earlier.kind.rawValue) until \(Self.seconds(earlier.start + earlier.length)) overlaps "
                    + "\(later.kind.rawValue) from \(Self.seconds(later.start))")
        }
        self.init(faults: faults)
    }

    /// Marks the server's start, from which the phases count: the first call wins.
    func begin() {
        _ = origin.compareExchange(
            expected: 0, desired: NIODeadline.now().uptimeNanoseconds &+ 1, ordering: .relaxed)
    }

    /// Nanoseconds since the server's start; 0 before it.
    func elapsed() -> UInt64 {
        let origin = origin.load(ordering: .relaxed)
        guard origin != 0 else { return 0 }
        let now = NIODeadline.now().uptimeNanoseconds &+ 1
        return now > origin ? now - origin : 0
    }

    /// The fault injected now, or `nil` in calm: what a backend call asks as it starts.
    @inline(__always)
    func current() -> FaultKind? {
        isEmpty ? nil : phases[phase(at: elapsed())].kind
    }

    /// The index in ``phases`` of the phase `elapsed` nanoseconds after the start falls in.
    func phase(at elapsed: UInt64) -> Int {
        // A scan: a schedule has a handful of phases, and the phases are contiguous, so the
        // first that ends after `elapsed` holds it (the last ends at `UInt64.max`).
        var index = 0
        while phases[index].end <= elapsed { index += 1 }
        return index
    }

    /// One entry, `KIND@STARTs+LENGTHs`.
    private static func fault(_ entry: String) throws -> (kind: FaultKind, start: UInt64, length: UInt64) {
        let form = "KIND@STARTs+LENGTHs"
        guard !entry.isEmpty else { throw problem("has an empty entry (a comma too many?)") }
        guard let at = entry.firstIndex(of: "@") else {
            throw problem("'\(entry)' is not \(form)")
        }
        let name = String(entry[..<at])
        guard let kind = FaultKind(rawValue: name) else {
            let kinds = FaultKind.allCases.map(\.rawValue).joined(separator: ", ")
            throw problem("'\(entry)': unknown fault '\(name)' (one of \(kinds))")
        }
        let times = entry[entry.index(after: at)...].split(separator: "+", omittingEmptySubsequences: false)
        guard times.count == 2 else { throw problem("'\(entry)' is not \(form)") }
        let start = try nanoseconds(times[0], of: entry)
        let length = try nanoseconds(times[1], of: entry)
        guard length > 0 else { throw problem("'\(entry)': the length must be above 0") }
        return (kind, start, length)
    }

    /// `text`, `DIGITS[.DIGITS]s` up to a day, in nanoseconds; anything else is a problem
    /// (no sign, exponent, `inf` or `nan`: what `Double(_:)` would accept is too much).
    private static func nanoseconds(_ text: Substring, of entry: String) throws -> UInt64 {
        let bad = problem("'\(entry)': '\(text)' is not a time in seconds such as 5s or 2.5s")
        guard text.hasSuffix("s") else { throw bad }
        let number = text.dropLast()
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            parts.allSatisfy({ $0.allSatisfy(\.isNumber) })
        else { throw bad }
        // Whole seconds, then the fraction to nanoseconds (past 9 digits is past the clock).
        guard parts[0].count <= 5, let whole = UInt64(parts[0]), whole <= longestSeconds else {
            throw problem("'\(entry)': '\(text)' is past a day (\(longestSeconds)s)")
        }
        var fraction: UInt64 = 0
        if parts.count == 2 {
            guard parts[1].count <= 9 else { throw problem("'\(entry)': '\(text)' has more than 9 decimals") }
            let digits = parts[1] + String(repeating: "0", count: 9 - parts[1].count)
            fraction = UInt64(digits) ?? 0
        }
        let total = whole * 1_000_000_000 + fraction
        guard total <= UInt64(longestSeconds) * 1_000_000_000 else {
            throw problem("'\(entry)': '\(text)' is past a day (\(longestSeconds)s)")
        }
        return total
    }

    /// `nanoseconds` as seconds, for a message.
    private static func seconds(_ nanoseconds: UInt64) -> String {
        "\(Double(nanoseconds) / 1e9)s"
    }

    private static func problem(_ what: String) -> Options.Problem {
        Options.Problem(description: "--faults \(what)")
    }
}
