/// Process-wide diagnostics: what Petal counts and reports instead of crashing a service.
///
/// Petal reports what is almost always a bug, and one slowdown, through one handler
/// (``handler``), as a ``PetalDiagnostic``:
/// - a promise resolved again (``RepeatedResolution``), and a job started again
///   (``RepeatedJobStart``);
/// - a promise dropped unresolved (``AbandonedPromise``);
/// - a failed future freed without anyone having observed its failure (``UnobservedFailure``);
/// - Petal's timer thread running a deadline's action late (``LateTimerCallback``);
/// - a value out of its parameter's range, replaced by the nearest one Petal can honour
///   (``AdjustedArgument``).
///
/// Each is counted per site first, whatever handler is installed, so an operator can read how
/// often, and where, from the per-kind counts and sites (``repeatedResolutionSites``,
/// ``repeatedJobStartSites``, ``abandonedPromiseSites``, ``unobservedFailureSites``,
/// ``lateTimerCount``, ``adjustedArgumentCount``). Then the handler runs. The default,
/// ``printFirstAtEachSite``, prints one line per site per process, through a background writer
/// that never makes a reporting thread wait on standard error; install your own to log, count
/// or fail a test.
///
/// Promises whose resolvers race on purpose opt out of repeat reports at creation
/// (``RepeatedResolutionPolicy/ignore``): their repeats are neither counted nor reported.
public enum PetalDiagnostics {
    /// Called for every report of every kind, after it was counted.
    ///
    /// Runs on the thread where the problem showed: the losing `fulfil`, `reject`, `cancel` or
    /// `resolve` call, the repeated ``Job/begin()``, the thread that released the last reference
    /// to an abandoned promise or to a failed future nobody observed, or the timer thread; before
    /// that call returns, and concurrently from several threads if several report at once. Keep
    /// it short and non-blocking: it delays the reporting thread. A report raised while this
    /// thread runs the handler (the handler resolved a promise twice, dropped one unresolved or
    /// dropped a failed future unobserved) is counted as usual but goes to the default handler,
    /// ``printFirstAtEachSite``, not to this one again: a handler that trips over Petal cannot
    /// recurse without end.
    ///
    /// The default, ``printFirstAtEachSite``, writes the first report at each site to standard
    /// error and only counts the others. A handler you install receives every report
    /// (``PetalDiagnostic/occurrence`` numbers them per site, ``PetalDiagnostic/isFirstAtSite``
    /// says whether it is the first). Reading and calling the handler takes no lock; setting it
    /// takes one, and a replaced handler may still be called by a thread that read it just
    /// before.
    ///
    /// To route every report to swift-log, capture a `Logger` (it is `Sendable`):
    ///
    /// ```swift
    /// let logger = Logger(label: "petal")
    /// PetalDiagnostics.handler = { logger.warning("\($0)") }
    /// ```
    public static var handler: @Sendable (PetalDiagnostic) -> Void {
        get { installed.withHandler { $0.body } }
        set { installed.replace(with: Handler(body: newValue)) }
    }

    /// The default handler: the first report at each site, as one line on standard error.
    ///
    /// Writes ``PetalDiagnostic/description``, followed by where the later reports of the site
    /// are counted, when ``PetalDiagnostic/isFirstAtSite`` and does nothing otherwise (every
    /// report is counted either way). The line is handed to a background thread that writes it,
    /// so the reporting thread never waits on standard error, even when it is a pipe nobody
    /// reads; if that thread falls 64 lines behind, further lines are dropped and counted in
    /// ``droppedLineCount``.
    public static let printFirstAtEachSite: @Sendable (PetalDiagnostic) -> Void = { diagnostic in
        guard diagnostic.isFirstAtSite else { return }
        DiagnosticOutput.write("\(diagnostic) (\(diagnostic.countedElsewhere))\n")
    }

    /// Lines the default handler could not write: the writer was more than 64 lines behind
    /// (standard error is not being read fast enough), or writing failed. The reports
    /// themselves are counted all the same.
    public static var droppedLineCount: Int {
        DiagnosticOutput.droppedLines.value
    }

    /// In a concrete struct, for the reason ``HandlerSlot`` gives.
    struct Handler: Sendable {
        var body: @Sendable (PetalDiagnostic) -> Void
        /// Whether this is the default handler as installed at start: it ignores every report
        /// but a site's first, so those need not even be built.
        var isDefault = false
    }

    private static let installed = HandlerSlot(Handler(body: printFirstAtEachSite, isDefault: true))

    /// Calls the handler with `diagnostic`, the `occurrence`-th at its site, on this thread (the
    /// caller counted it already).
    ///
    /// With the default handler, a report that is not its site's first is dropped unbuilt: a
    /// service whose resolvers lose races by the million pays for a count, not for a report
    /// nobody prints (callgrind: building and switching over one cost 160 instructions).
    static func report(_ diagnostic: @autoclosure () -> PetalDiagnostic, occurrence: Int) {
        installed.withHandler { handler in
            if handler.isDefault && occurrence != 1 { return }
            // The default handler only queues a line: it cannot report again.
            if handler.isDefault { return handler.body(diagnostic()) }
            // A report raised by the handler itself (it resolved a promise twice, dropped one
            // unresolved, ...) would call it again, and again: it goes to the default handler.
            guard !insideHandler.isSet else { return printFirstAtEachSite(diagnostic()) }
            insideHandler.whileSet { handler.body(diagnostic()) }
        }
    }

    /// Set on a thread while it runs an installed handler.
    private static let insideHandler = ThreadFlag()
}
