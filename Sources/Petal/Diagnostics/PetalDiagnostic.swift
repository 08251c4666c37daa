/// One thing Petal reports: every kind arrives through ``PetalDiagnostics/handler``.
///
/// Each kind is counted per site before it is reported (a promise's creation site, a job's type,
/// ...), and ``occurrence`` numbers the reports of one site, so a handler that acts only on
/// ``isFirstAtSite`` hears of each site once. A service routes everything to its logger in one
/// line:
///
/// ```swift
/// let logger = Logger(label: "petal")   // swift-log's Logger is Sendable
/// PetalDiagnostics.handler = { logger.warning("\($0)") }
/// ```
public enum PetalDiagnostic: Sendable, CustomStringConvertible {
    /// A promise was resolved again; the first resolution stands.
    case repeatedResolution(RepeatedResolution)
    /// A job was started again; the start was ignored.
    case repeatedJobStart(RepeatedJobStart)
    /// A promise was dropped unresolved; its future was cancelled with an
    /// ``AbandonedPromiseError``.
    case abandonedPromise(AbandonedPromise)
    /// A failed future was freed without anyone having observed its failure.
    case unobservedFailure(UnobservedFailure)
    /// Petal's timer thread ran a deadline's action late.
    case lateTimer(LateTimerCallback)
    /// A value passed to Petal was out of its parameter's range; the nearest one was used.
    case adjustedArgument(AdjustedArgument)

    /// How much a report matters, as a hint for the log level to use.
    public enum Severity: Sendable, Hashable, Comparable {
        /// A slowdown, not a mistake: log it as a notice.
        case notice
        /// Almost always a bug in the program: log it as a warning.
        case warning
    }

    /// How much this report matters: ``Severity/notice`` for a late timer, ``Severity/warning``
    /// for every other kind.
    public var severity: Severity {
        if case .lateTimer = self { return .notice }
        return .warning
    }

    /// Which report of its kind this is at its site, in this process: 1 for the first, and each
    /// one a different number, even when several threads report at once.
    public var occurrence: Int {
        switch self {
        case .repeatedResolution(let report): report.occurrence
        case .repeatedJobStart(let report): report.occurrence
        case .abandonedPromise(let report): report.occurrence
        case .unobservedFailure(let report): report.occurrence
        case .lateTimer(let report): report.occurrence
        case .adjustedArgument(let report): report.occurrence
        }
    }

    /// Whether this is the first report of its kind at its site: what the default handler prints.
    public var isFirstAtSite: Bool { occurrence == 1 }

    /// The report as one line, starting with `Petal:`.
    public var description: String {
        switch self {
        case .repeatedResolution(let report): report.description
        case .repeatedJobStart(let report): report.description
        case .abandonedPromise(let report): report.description
        case .unobservedFailure(let report): report.description
        case .lateTimer(let report): report.description
        case .adjustedArgument(let report): report.description
        }
    }

    /// What the default handler adds to the first line of a site: where the later ones are
    /// counted.
    var countedElsewhere: String {
        switch self {
        case .repeatedResolution:
            "later repeats at this site are only counted: PetalDiagnostics.repeatedResolutionSites"
        case .repeatedJobStart:
            "later repeats of this type are only counted: PetalDiagnostics.repeatedJobStartSites"
        case .abandonedPromise:
            "later ones at this site are only counted: PetalDiagnostics.abandonedPromiseSites"
        case .unobservedFailure:
            "later ones at this site are only counted: PetalDiagnostics.unobservedFailureSites"
        case .lateTimer:
            "later ones are only counted: PetalDiagnostics.lateTimerCount"
        case .adjustedArgument:
            "later ones for this parameter are only counted: PetalDiagnostics.adjustedArgumentCount"
        }
    }
}
