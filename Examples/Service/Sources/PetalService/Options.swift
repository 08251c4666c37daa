/// The command line: `PetalService [--host HOST] [--port PORT]`.
///
/// Parsed by hand: two options do not justify a dependency and its build time.
struct Options: Sendable {
    /// The address to bind.
    var host = "127.0.0.1"
    /// The port to bind; 0 lets the system choose a free one (the `listening on` line says which).
    var port = 0

    /// What `--help` and a mistake print.
    static let usage = """
        usage: PetalService [--host HOST] [--port PORT]
          --host HOST   address to bind (default 127.0.0.1)
          --port PORT   port to bind, 0 for any free port (default 0)
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
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw Problem(description: "--port must be an integer from 0 to 65535, not \(value)")
                }
                self.port = port
            default:
                throw Problem(description: "unknown option \(name)")
            }
        }
    }
}
