import Petal

/// The command line: `PetalService [--host HOST] [--port PORT] [--limit M] [--queue Q]
/// [--limit-min F] [--limit-tolerance T] [--limit-timing requests|operations]
/// [--faults KIND@STARTs+LENGTHs[,...]]`.
///
/// Parsed by hand: eight options do not justify a dependency and its build time.
struct Options: Sendable {
    /// The address to bind.
    var host = "127.0.0.1"
    /// The port to bind; 0 lets the system choose a free one (the `listening on` line says which).
    var port = 0
    /// Requests of the `limited` variant fanning out at once, at most, and where its adaptive
    /// limit starts: by default 8, so that the 8 connections of a calm load are never refused,
    /// and a flood is.
    var limit = 8
    /// With a value, the limit is adaptive (`AdaptiveLimit`): from `limit` down to this when
    /// the requests it admits get slower than in calm or miss their deadline (the CPU they get
    /// under a flood), and back up with the calm. Without: fixed at `limit`, the default,
    /// because on this service the adaptive limit has not yet kept the tail better than the
    /// fixed one (see the example's README).
    var limitMinimum: Int?
    /// How much slower than in calm the admitted requests may get before the adaptive limit
    /// comes down: by default 1.15 (at 256 connections on 2 cores, 5 requests at once take
    /// 1.18 times their calm time and 6 take 1.24 times, and miss their deadline 2% of the
    /// time).
    var limitTolerance = 1.15
    /// What the adaptive limit times: each request's whole time, from its arrival at the route
    /// to its answer (`requests`, the default), or the fan-out it admits (`operations`).
    var limitTiming = AdaptiveLimit.Timing.reported
    /// Requests of the `limited` variant waiting for a slot, at most; past that, 503. Small: a
    /// request that waits for a slot waits for about a request's time, out of its 20 ms.
    var queue = 2
    /// The faults the backends inject (`--faults`, ``FaultSchedule``): none by default.
    var faults = FaultSchedule()

    /// What `--help` and a mistake print.
    static let usage = """
        usage: PetalService [--host HOST] [--port PORT] [--limit M] [--queue Q] [--faults ...]
               PetalService --self-check
          --host HOST   address to bind (default 127.0.0.1)
          --port PORT   port to bind, 0 for any free port (default 0)
          --limit M     /fanout/limited: requests fanning out at once, 1 or more (default 8)
          --queue Q     /fanout/limited: requests waiting for a slot, 0 or more (default 2)
          --limit-min F /fanout/limited: an adaptive limit, from M down to F (1 to M) under
                        overload (default: none, the limit is fixed at M)
          --limit-tolerance T
                        /fanout/limited: how much slower than calm the admitted requests may
                        get before the adaptive limit comes down, 1 to 10 (default 1.15)
          --limit-timing requests|operations
                        /fanout/limited: what the adaptive limit times, each request's whole
                        time or the fan-out it admits (default requests)
          --faults KIND@STARTs+LENGTHs[,...]
                        faults injected into every backend call, counted from the server's
                        start: outage (calls fail at once), hang (no call answers until
                        cancelled), slow (calls answer in 5-15 ms instead of 1-5) or shift
                        (in 2-8 ms), e.g. outage@5s+5s,hang@15s+5s,slow@25s+10s,shift@40s+10s;
                        not overlapping (default none)
          --self-check  check the fault schedule's parser and phase lookup, then exit (0: passed)
        """

    /// A problem with the command line, described for the user.
    struct Problem: Error, CustomStringConvertible {
        /// What is wrong.
        let description: String
    }

    /// Reads `arguments` (without the program name): `--name value` or `--name=value`.
    ///
    /// - Throws: ``Problem`` for an unknown option, a missing value, a value out of range, or a
    ///   bad or repeated fault schedule.
    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
        var faultsGiven = false
        while let argument = iterator.next() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first else { throw Problem(description: "empty argument") }
            guard let value = parts.count == 2 ? parts[1] : iterator.next() else {
                throw Problem(description: "\(name) needs a value")
            }
            switch name {
            case "--host":
                host = value
            case "--port":
                port = try Self.integer(value, for: name, in: 0...65535)
            case "--limit":
                limit = try Self.integer(value, for: name, in: 1...ConcurrencyLimit.largestCount)
            case "--queue":
                queue = try Self.integer(value, for: name, in: 0...ConcurrencyLimit.largestCount)
            case "--limit-min":
                limitMinimum = try Self.integer(value, for: name, in: 1...ConcurrencyLimit.largestCount)
            case "--limit-tolerance":
                guard let number = Double(value), (1.0...10.0).contains(number) else {
                    throw Problem(description: "\(name) must be a number from 1 to 10, not \(value)")
                }
                limitTolerance = number
            case "--limit-timing":
                switch value {
                case "requests": limitTiming = .reported
                case "operations": limitTiming = .operations
                default: throw Problem(description: "\(name) must be requests or operations, not \(value)")
                }
            case "--faults":
                // Twice is a mistake, not an override: which schedule was meant, or both?
                guard !faultsGiven else { throw Problem(description: "--faults given twice") }
                faultsGiven = true
                faults = try FaultSchedule(parsing: value)
            default:
                throw Problem(description: "unknown option \(name)")
            }
        }
    }

    /// The `limited` variant's limit: fixed at `--limit`, or adaptive between `--limit-min`
    /// and `--limit`.
    func makeLimit() throws -> ConcurrencyLimit {
        guard let limitMinimum else { return ConcurrencyLimit(maximum: limit, queue: queue) }
        guard limitMinimum <= limit else {
            throw Problem(description: "--limit-min (\(limitMinimum)) must not be above --limit (\(limit))")
        }
        return ConcurrencyLimit(
            adaptive: AdaptiveLimit(
                range: limitMinimum...limit, initial: limit, tolerance: limitTolerance, timing: limitTiming),
            queue: queue)
    }

    /// `value` as an integer in `range`, or a ``Problem`` naming the option and the range.
    private static func integer(_ value: String, for name: String, in range: ClosedRange<Int>) throws -> Int {
        guard let number = Int(value), range.contains(number) else {
            throw Problem(
                description: "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        return number
    }
}
