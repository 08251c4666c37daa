// The whole module is the Logging trait's: without it, this target compiles to nothing and its
// swift-log dependency is neither resolved nor built.
#if Logging
    import Logging
    import Petal

    extension PetalDiagnostics {
        /// A handler that writes every report to `logger`, with its facts as metadata:
        ///
        /// ```swift
        /// PetalDiagnostics.handler = PetalDiagnostics.logging(to: Logger(label: "petal"))
        /// ```
        ///
        /// - Level: the first report at each site at its severity (`.warning`, or `.notice` for a
        ///   late timer and a circuit breaker's change of state); the later ones at a site at `laterReportsLevel`, `.debug` by default, so
        ///   that a site that repeats by the million (resolvers that lose races) costs one line at
        ///   the levels a service logs, and the rest are still there when debugging. Every report
        ///   is counted by ``Petal/PetalDiagnostics/count(of:)`` either way.
        /// - Message: the report's one line (``Petal/PetalDiagnostic/description``).
        /// - Metadata: `petal.kind`, `petal.site` (and `petal.file`, `petal.line` for a promise's
        ///   creation site), `petal.occurrence`, and each of the kind's details as `petal.<key>`
        ///   (for example `petal.attempt`, `petal.valueType`, `petal.error`).
        ///
        /// Runs on the reporting thread, as every handler does: swift-log's handlers are expected
        /// not to block; give Petal a logger whose backend queues its output.
        public static func logging(
            to logger: Logger, laterReportsLevel: Logger.Level = .debug
        ) -> @Sendable (PetalDiagnostic) -> Void {
            { report in
                let level = report.isFirstAtSite ? Logger.Level(report.severity) : laterReportsLevel
                guard logger.logLevel <= level else { return }
                logger.log(level: level, "\(report.description)", metadata: report.metadata)
            }
        }
    }

    extension Logger.Level {
        /// The level a report of `severity` is logged at.
        init(_ severity: PetalDiagnostic.Severity) {
            switch severity {
            case .notice: self = .notice
            case .warning: self = .warning
            }
        }
    }

    extension PetalDiagnostic {
        /// The report's facts, as swift-log metadata under `petal.` keys.
        public var metadata: Logger.Metadata {
            var metadata: Logger.Metadata = [
                "petal.kind": "\(kind.rawValue)",
                "petal.site": "\(site.name)",
                "petal.occurrence": "\(occurrence)",
            ]
            if let fileID = site.fileID { metadata["petal.file"] = "\(fileID)" }
            if let line = site.line { metadata["petal.line"] = "\(line)" }
            for (key, value) in details { metadata["petal.\(key)"] = "\(value)" }
            return metadata
        }
    }
#endif
