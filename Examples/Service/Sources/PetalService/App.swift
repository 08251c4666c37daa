import Foundation
import Hummingbird
import Logging
import NIOCore
import Petal
import PetalNIO

/// The service's entry point: parses the command line, builds the routes, and runs the server
/// until SIGINT or SIGTERM.
@main
enum PetalService {
    static func main() async throws {
        if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
            print(Options.usage)
            return
        }
        let options: Options
        do {
            options = try Options(CommandLine.arguments.dropFirst())
        } catch {
            FileHandle.standardError.write(Data("PetalService: \(error)\n\(Options.usage)\n".utf8))
            exit(64)  // EX_USAGE
        }

        // A blocking `wait()` on an event-loop thread would stall every connection of that loop:
        // make it stop the program with a message instead, as NIO's own `wait()` does.
        BlockingWaits.forbidOnEventLoops()

        let backend = Backend()
        let router = Router(context: FanoutContext.self)
        Routes.add(to: router, backend: backend)

        // Warnings only (LOG_LEVEL overrides): a log line per request would cost more than the
        // work being measured, and standard output is kept for the one `listening on` line.
        var logger = Logger(label: "PetalService")
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) }
        logger.logLevel = level ?? .warning

        let app = Application(
            router: router,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "PetalService"),
            onServerRunning: { channel in announce(channel, host: options.host) },
            logger: logger)
        try await app.runService()
    }

    /// Prints `listening on http://HOST:PORT` with the port actually bound, once the server
    /// accepts connections. Written straight to the file descriptor, so a script reading a pipe
    /// sees it at once (`print` would sit in stdio's buffer).
    @Sendable
    static func announce(_ channel: any Channel, host: String) {
        let port = channel.localAddress?.port ?? 0
        let shownHost = host.contains(":") ? "[\(host)]" : host
        FileHandle.standardOutput.write(Data("listening on http://\(shownHost):\(port)\n".utf8))
    }
}
