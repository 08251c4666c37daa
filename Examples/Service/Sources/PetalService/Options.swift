import Petal

/// The command line: `PetalService [--host HOST] [--port PORT] [--limit M] [--queue Q]`.
///
/// Parsed by hand: four options do not justify a dependency and its build time.
struct Options: Sendable {
    /// The address to bind.
    var host = "127.0.0.1"
    /// The port to bind; 0 lets the system choose a free one (the `listening on` line says which).
    var port = 0
    /// Requests of the `limited` variant fanning out at once, at most: by default 8, so that the
    /// 8 connections of a calm load are never refused, and a flood is.
    var limit = 8
    /// Requests of the `limited` variant waiting for a slot, at most; past that, 503. Small: a
    /// request that waits for a slot waits for about a request's time, out of its 20 ms.
    var queue = 2

    /// What `--help` and a mistake print.
    static let usage = """
        usage: PetalService [--host HOST] [--port PORT] [--limit M] [--queue Q]
          --host HOST   address to bind (default 127.0.0.1)
          --port PORT   port to bind, 0 for any free port (default 0)
          --limit M     /fanout/limited: requests fanning out at once, 1 or more (default 8)
          --queue Q     /fanout/limited: requests waiting for a slot, 0 or more (default 2)
        """

    /// A problem with the command line, described for the user.
    struct Problem: Error, CustomStringConvertible {
        /// What is wrong.
        let description: String
    }

    /// Reads `arguments` (without the program name): `--name value` or `--name=value`.
    ///
    /// - Throws: ``Problem`` for an unknown option, a missing value or a bad port.
    init(_ arguments: some Sequence<String>) throws {
        var iterator = arguments.makeIterator()
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
            default:
                throw Problem(description: "unknown option \(name)")
            }
        }
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
