import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOPosix
import Petal
import PetalHummingbird
import PetalNIO
import PetalServiceLifecycle
import ServiceLifecycle

/// The service's entry point: parses the command line, builds the routes, and runs the server
/// until SIGINT or SIGTERM, then drains and exits.
@main
enum PetalService {
    /// How long a graceful shutdown may take before what is left is cancelled: the requests in
    /// flight end within their 20 ms deadline, so this is only reached if something hangs.
    static let shutdownBound = Duration.milliseconds(1500)

    /// The server's own loop: accepting, HTTP, routing, and refusing (`LoadShedder`), on one
    /// thread, apart from the backends' loop (`Backend`).
    ///
    /// Why one thread, on a 2-core machine. Under overload (clients that ask again the moment
    /// they are refused) the front door is always busy, however cheap a refusal is: each thread
    /// it runs on is a thread that never sleeps. With two, the backends' loop, Petal's timer and
    /// Swift's executor compete with two busy threads for the cores, and the requests already
    /// admitted wait behind the ones being refused (measured: server-side p99 2.0x its calm
    /// value at 256 connections, against 1.65x with one; `Scripts/service`'s overload runs).
    /// One thread serves the load this service sees in calm (1,000-3,000 requests a second).
    static let frontDoor = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    static func main() async throws {
        if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
            print(Options.usage)
            return
        }
        if CommandLine.arguments.dropFirst().first == "--self-check" {
            exit(FaultScheduleSelfCheck.run() ? 0 : 1)
        }
        let options: Options
        let limit: ConcurrencyLimit
        do {
            options = try Options(CommandLine.arguments.dropFirst())
            limit = try options.makeLimit()
        } catch {
            FileHandle.standardError.write(Data("PetalService: \(error)\n\(Options.usage)\n".utf8))
            exit(64)  // EX_USAGE
        }

        // A blocking `wait()` on an event-loop thread would stall every connection of that loop:
        // make it stop the program with a message instead, as NIO's own `wait()` does.
        BlockingWaits.forbidOnEventLoops()

        let backend = Backend(faults: options.faults)
        // Waits for the Petal requests it asked to stop at most as long as the group waits.
        let drain = RequestDrain(gracePeriod: shutdownBound)
        let router = Router(context: BasicRequestContext.self)
        Routes.add(to: router, backend: backend, drain: drain, limit: limit)

        // Warnings only (LOG_LEVEL overrides): a log line per request would cost more than the
        // work being measured, and standard output is kept for the `listening on` and `stopped`
        // lines.
        var logger = Logger(label: "PetalService")
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap { Logger.Level(rawValue: $0) }
        logger.logLevel = level ?? .warning

        // Every connection's pipeline refuses `limited` and `resilient` requests (the two routes
        // behind the limit) on the loop while the limit is full (PetalNIO's LoadShedder), and
        // stamps every request with its arrival.
        let limitedCounters = backend.counters(of: .limited)
        let resilientCounters = backend.counters(of: .resilient)
        let limitedPath = "/fanout/\(Variant.limited.name)"
        let resilientPath = "/fanout/\(Variant.resilient.name)"
        let app = Application(
            router: router,
            server: .http1(
                shedding: limit,
                refusal: .init(
                    headerFields: [.contentType: "application/json"],
                    body: ByteBuffer(string: #"{"error": "over the concurrency limit"}"# + "\n")),
                sheddable: { head in
                    guard let path = head.path else { return false }
                    return path.hasPrefix(limitedPath) || path.hasPrefix(resilientPath)
                },
                onShed: { head in
                    let counters = head.path?.hasPrefix(resilientPath) ?? false ? resilientCounters : limitedCounters
                    VariantCounters.increment(counters.shed)
                }),
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: "PetalService"),
            onServerRunning: { channel in
                // The fault schedule counts from here, as the script that reads this line does.
                backend.faults.begin()
                announce(channel, host: options.host)
            },
            eventLoopGroupProvider: .shared(frontDoor),
            logger: logger)

        // SIGTERM or SIGINT starts a graceful shutdown, of the services last first: the drain asks
        // the Petal requests in flight to stop at once and waits for them, then Hummingbird stops
        // accepting and waits for the rest; past the bound, the group cancels what is left.
        var configuration = ServiceGroupConfiguration(
            services: [app, drain], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownBound
        configuration.maximumCancellationDuration = shutdownBound
        do {
            try await ServiceGroup(configuration: configuration).run()
        } catch {
            logger.warning("the server stopped with an error", metadata: ["error": "\(error)"])
        }
        // Every backend call of every variant that is neither answered nor cancelled: 0 unless
        // something leaked.
        let pending = Variant.allCases.reduce(0) { $0 + backend.counters(of: $1).pending }
        FileHandle.standardOutput.write(Data("stopped: pending \(pending)\n".utf8))
        exit(0)
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
