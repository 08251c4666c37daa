#if Logging
    import Logging
    @testable import Petal
    import PetalLogging
    import Synchronization
    import Testing

    /// A swift-log backend that keeps every entry, for the tests.
    private struct RecordingLogHandler: LogHandler {
        struct Entry: Sendable {
            let level: Logger.Level
            let message: String
            let metadata: Logger.Metadata
        }

        let entries: Entries
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            entries.value.withLock {
                $0.append(Entry(level: event.level, message: "\(event.message)", metadata: event.metadata ?? [:]))
            }
        }
    }

    /// Where a ``RecordingLogHandler`` keeps its entries.
    private final class Entries: Sendable {
        let value = Mutex<[RecordingLogHandler.Entry]>([])
    }

    /// A job whose repeated start is reported.
    private final class StartedTwice: Job<Void, Int>, @unchecked Sendable {}

    private struct Failure: Error {}

    /// Raises one report of every kind, twice where the level of a site's later reports is tested.
    private func raiseEveryKind() {
        let promise = Promise<Int>()
        promise.fulfil(with: 1)
        promise.fulfil(with: 2)
        promise.fulfil(with: 3)
        let job = StartedTwice()
        _ = job.begin()
        _ = job.begin()
        _ = Promise<Int>()
        _ = Future<Int>.rejected(with: Failure())
        let now = ContinuousClock.now
        PetalDiagnostics.reportLateTimer(deadline: now, ranAt: now + .seconds(1))
        _ = Future<Int>.retrying(RetryPolicy(attempts: 1, multiplier: .nan)) { .fulfilled(with: 1) }
        let breaker = CircuitBreaker(name: "logging", policy: CircuitBreakerPolicy(minimumCalls: 1))
        _ = breaker.run { Future<Int>.rejected(with: Failure()) }
    }

    /// Logs every kind through `PetalDiagnostics.logging(to:)` in this process, and checks what
    /// reached the backend. Runs in a child process: the handler is process-wide.
    private func logEveryKind() {
        let entries = Entries()
        let logger = Logger(label: "petal") { _ in RecordingLogHandler(entries: entries) }
        PetalDiagnostics.handler = PetalDiagnostics.logging(to: logger)
        raiseEveryKind()
        let logged = entries.value.withLock { $0 }
        for kind in PetalDiagnostic.Kind.allCases {
            let first = logged.first { $0.metadata["petal.kind"] == "\(kind.rawValue)" }
            precondition(first != nil, "nothing logged for \(kind)")
            precondition(first?.level == (kind.severity == .notice ? .notice : .warning), "level of \(kind)")
            precondition(first?.message.hasPrefix("Petal: ") == true, "message of \(kind)")
            precondition(first?.metadata["petal.occurrence"] == "1")
        }
        let repeats = logged.filter { $0.metadata["petal.kind"] == "repeatedResolution" }
        precondition(repeats.map(\.level) == [.warning, .debug], "\(repeats.map(\.level))")
        precondition(repeats.first?.metadata["petal.attempt"] == "fulfil")
        precondition(repeats.first?.metadata["petal.file"] == "PetalLoggingTests/LoggingTests.swift")
        precondition(repeats.first?.metadata["petal.line"] != nil)
        let adjusted = logged.first { $0.metadata["petal.kind"] == "adjustedArgument" }
        precondition(adjusted?.metadata["petal.site"] == "RetryPolicy.multiplier")
        precondition(adjusted?.metadata["petal.given"] == "nan")
    }

    /// A logger at `.info` drops the later reports of a site before they are formatted.
    private func quietLoggerSkipsLaterReports() {
        let entries = Entries()
        var logger = Logger(label: "petal") { _ in RecordingLogHandler(entries: entries) }
        logger.logLevel = .info
        PetalDiagnostics.handler = PetalDiagnostics.logging(to: logger)
        let promise = Promise<Int>()
        for value in 0..<100 { promise.fulfil(with: value) }
        precondition(entries.value.withLock { $0.count } == 1)
        precondition(PetalDiagnostics.count(of: .repeatedResolution) == 99)
    }

    @Suite("PetalLogging: diagnostics to swift-log")
    struct LoggingTests {
        @Test("every kind of report is logged once per site at its severity, later ones at debug, with metadata")
        func everyKindIsLogged() async {
            await #expect(processExitsWith: .success) { logEveryKind() }
        }

        @Test("later reports of a site below the logger's level are counted, not logged")
        func laterReportsBelowTheLevel() async {
            await #expect(processExitsWith: .success) { quietLoggerSkipsLaterReports() }
        }
    }
#endif
