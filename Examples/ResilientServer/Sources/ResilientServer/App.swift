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

/// `ResilientServer [--host HOST] [--port PORT] [--limit M] [--queue Q]`: `GET /fanout?key=K&n=N`
/// sums N hedged calls to a simulated backend within 20 ms of the request's arrival; `GET /stats`
/// says how it went. `--limit` and `--queue` size the concurrency limit (8 and 2).
@main
enum ResilientServer {
    static let budget = Duration.milliseconds(20)

    static func main() async throws {
        let arguments = CommandLine.arguments
        func option(_ name: String) -> String? {
            arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let host = option("--host") ?? "127.0.0.1"
        guard let port = Int(option("--port") ?? "0"), let maximum = Int(option("--limit") ?? "8"),
            let queue = Int(option("--queue") ?? "2"), maximum >= 1, queue >= 0
        else {
            let usage = "usage: ResilientServer [--host HOST] [--port PORT] [--limit M] [--queue Q]\n"
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        var logger = Logger(label: "ResilientServer")
        logger.logLevel = .warning  // standard output is for the `listening on` and `stopped` lines

        let backend = Backend()
        let stats = Stats()
        // 8 requests fanning out at once and 2 waiting: more would only finish later, and the
        // shedder refuses the rest with 503 on the event loop, before they cost a task.
        let limit = ConcurrencyLimit(maximum: maximum, queue: queue)
        // A second copy of a call not answered after 5 ms (the slowest ordinary answer), a third
        // after 10: a lost call costs 5 ms, not the request. Extra copies: at most 5% of calls.
        let hedging = HedgingPolicy(copies: 3, delay: .milliseconds(5), budget: RetryBudget(share: 0.05, burst: 64))
        // The hedge delays kept by the backend's loop, where the calls are made and answered: a
        // delay taken out when its call answers (most are) then wakes no other thread.
        let hedgeClock = DeadlineClock.eventLoop(backend.loop)
        // On SIGTERM, asks the requests in flight to stop and waits for them (a second at most).
        let drain = RequestDrain(gracePeriod: .seconds(1))

        let router = Router()
        // Before the middleware, which apply to the routes added after them: /stats has no
        // deadline and counts itself in nothing.
        router.get("stats") { _, _ -> Response in .json(try stats.report(backend)) }
        let deadlines = DeadlineMiddleware<BasicRequestContext>(budget: budget)
        router.add(middleware: StatsMiddleware(stats: stats, deadlines: deadlines))
        router.add(middleware: deadlines)
        router.get("fanout") { request, _ -> Response in
            let query = request.uri.queryParameters
            let key = query.get("key", as: Int.self) ?? 1
            let n = query.get("n", as: Int.self) ?? 3
            // Bounded so that the sum cannot overflow (a trap would take the server down).
            guard (1...256).contains(n), abs(key) <= 1_000_000_000_000 else { throw HTTPError(.badRequest) }
            // Once admitted, one hop to the backend's loop: the calls' promises are made,
            // answered and freed on the thread their answers come from.
            let answers = limit.run {
                Future.startFollowing(on: .eventLoop(backend.loop)) {
                    let calls = (1...n).map { index in
                        Future.hedging(hedging, clock: hedgeClock) { backend.call(index, key: key) }
                    }
                    return Future.fulfillingWhen(calls)
                }
            }.timeout(by: .current)
            // A refusal by the limit (or by the drain) answers 503 and the deadline 504, through
            // PetalHummingbird, and DeadlineMiddleware turns a 200 that comes too late into a 504.
            let sum = try await drain.track(answers).value(cancellingUpstream: true).reduce(0, +)
            return .json(#"{"sum": \#(sum)}"#)
        }

        // One thread accepts, parses and sheds: under a flood it never sleeps, and a second would
        // take the other core from the requests admitted (Examples/Service measured it).
        let app = Application(
            router: router, server: .http1(shedding: limit, onShed: { _ in stats.shed.add(1, ordering: .relaxed) }),
            configuration: .init(address: .hostname(host, port: port), serverName: "ResilientServer"),
            onServerRunning: { channel in
                // Straight to the file descriptor, so a script reading a pipe sees it at once.
                let line = "listening on http://\(host):\(channel.localAddress?.port ?? 0)\n"
                FileHandle.standardOutput.write(Data(line.utf8))
            },
            eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1)), logger: logger)
        // On SIGTERM the group shuts its services down last first: the drain, then the server,
        // which stops accepting and waits for the answers on their way out.
        let group = ServiceGroup(
            configuration: .init(services: [app, drain], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
        FileHandle.standardOutput.write(Data("stopped: pending \(backend.pending)\n".utf8))
    }
}

extension Response {
    static func json(_ body: String, _ status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: body + "\n")))
    }
}
