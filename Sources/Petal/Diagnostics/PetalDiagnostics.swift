import CPetal

/// Process-wide diagnostics: what Petal counts and reports instead of crashing a service.
///
/// Petal reports what is almost always a bug, and one slowdown, as a ``PetalDiagnostic`` of a
/// ``PetalDiagnostic/Kind``: a promise resolved again, a job started again, a promise dropped
/// unresolved, a failed future freed unobserved, the timer thread running late, a value out of
/// its parameter's range. Each report is counted per site first, whatever handler is installed
/// (read how often, and where, with ``count(of:)`` and ``sites(of:)``); then ``handler`` runs. The
/// default, ``printFirstAtEachSite``, prints one line per site per process, through a background
/// writer that never makes a reporting thread wait on standard error; install your own to log,
/// count or fail a test.
///
/// Promises whose resolvers race on purpose opt out of repeat reports at creation
/// (``RepeatedResolutionPolicy/ignore``): their repeats are neither counted nor reported.
public enum PetalDiagnostics {
    /// Called for every report of every kind, after it was counted.
    ///
    /// Runs on the thread where the problem showed: the losing `fulfil`, `reject`, `cancel` or
    /// `resolve` call, the repeated ``Job/begin()``, the thread that released the last reference
    /// to an abandoned promise or to a failed future nobody observed, the timer thread, or the
    /// call given an adjusted argument; before that call returns, and concurrently from several
    /// threads if several report at once. Keep it short and non-blocking: it delays the
    /// reporting thread. A report raised while this thread runs the handler (the handler
    /// resolved a promise twice, dropped one unresolved or dropped a failed future unobserved)
    /// is counted as usual but goes to the default handler, ``printFirstAtEachSite``, not to this
    /// one again: a handler that trips over Petal cannot recurse without end.
    ///
    /// A handler you install receives every report (``PetalDiagnostic/isFirstAtSite`` says
    /// whether it is its site's first). Reading and calling the handler takes no lock; setting
    /// it takes one, and a replaced handler may still be called by a thread that read it just
    /// before. To route every report to swift-log (a level from ``PetalDiagnostic/severity``,
    /// metadata from ``PetalDiagnostic/details``, if you like), capture a `Logger`:
    ///
    /// ```swift
    /// let logger = Logger(label: "petal")
    /// PetalDiagnostics.handler = { logger.warning("\($0)") }
    /// ```
    public static var handler: @Sendable (PetalDiagnostic) -> Void {
        get { installed.withHandler { $0.body } }
        set {
            // FULL, before the handler is replaced: a repeat counted alone from now on was
            // counted by a thread that read the default handler (see `petal_repeat_cache.h`).
            // A locked and that clears the word: the full barrier without a compare-and-swap.
            if petal_atomic_word_load(petal_repeat_counting_flag()) != 0 {
                petal_atomic_word_and(petal_repeat_counting_flag(), 0)
            }
            installed.replace(with: Handler(newValue))
        }
    }

    /// The default handler: the first report at each site, as one line on standard error.
    ///
    /// Writes ``PetalDiagnostic/description`` and where the site's later reports are counted,
    /// when ``PetalDiagnostic/isFirstAtSite``, and does nothing otherwise. The line is handed to a
    /// background thread that writes it, so the reporting thread never waits on standard error,
    /// even when it is a pipe nobody reads; if that thread falls 64 lines behind, further lines
    /// are dropped and counted in ``droppedLineCount``.
    public static let printFirstAtEachSite: @Sendable (PetalDiagnostic) -> Void = { report in
        guard report.isFirstAtSite else { return }
        DiagnosticOutput.shared.enqueue(
            "\(report) (later ones at this site are only counted: PetalDiagnostics.sites(of: .\(report.kind)))\n")
    }

    /// Lines the default handler could not write: the writer was more than 64 lines behind
    /// (standard error is not being read fast enough), or writing failed. The reports themselves
    /// are counted all the same.
    public static var droppedLineCount: Int { DiagnosticOutput.shared.dropped.value }

    /// How many reports of `kind` were counted in this process, at every site (a snapshot: other
    /// threads may be counting while it is read).
    public static func count(of kind: PetalDiagnostic.Kind) -> Int {
        tally.counts(of: kind).reduce(0) { $0 + $1.count }
    }

    /// Every site with reports of `kind` counted, busiest first (a snapshot).
    ///
    /// A promise's creation site is its `#fileID` and line, named by the first value type
    /// counted there. Sites are kept in a fixed table (1,024 sites of every kind, along with the
    /// creation sites of promises that failed): once it is full, further sites of a kind are
    /// counted, and their reports numbered, together, as the site `other sites`.
    public static func sites(of kind: PetalDiagnostic.Kind) -> [PetalDiagnostic.SiteCount] {
        tally.counts(of: kind).sorted { $0.count > $1.count }
    }

    /// How late the timer thread may run a deadline's action before it is reported as a
    /// ``PetalDiagnostic/Kind/lateTimer``: 100 milliseconds.
    ///
    /// Far above what scheduling costs on a healthy machine (well under a millisecond), and well
    /// below what a service notices in its timeouts: an action that late was almost surely held
    /// up by a slow callback that ran on the timer thread.
    public static let lateTimerThreshold = Duration.milliseconds(100)

    /// Every site's count.
    static let tally = SiteTally()

    /// Counts a report at `key`'s site (for a promise site, `type` is the value type), then passes
    /// it, with its `details` and `error`, to the handler on this thread.
    ///
    /// - Returns: The slot that counted it, if the default handler was installed: then counting
    ///   alone is enough for the site's later reports (see `petal_repeat_cache.h`).
    @discardableResult
    static func report(
        _ key: SiteTally.Key, type: Any.Type? = nil, error: (any Error)? = nil,
        details: @autoclosure () -> [String: String]
    ) -> Int? {
        let (slot, occurrence) = tally.count(key, type: type)
        return installed.withHandler { handler in
            // The default handler ignores all but a site's first report, so the others are not
            // even built: a service whose resolvers lose races by the million pays for a count,
            // not for a report nobody prints (callgrind: building one cost 160 instructions).
            guard !handler.isDefault || occurrence == 1 else { return slot }
            deliver(
                to: handler, key: key, type: type, slot: slot, occurrence: occurrence, error: error, details: details)
            return handler.isDefault ? slot : nil
        }
    }

    /// Builds the report and calls `handler` with it: out of line, off the counting path.
    @inline(never)
    private static func deliver(
        to handler: Handler, key: SiteTally.Key, type: Any.Type?, slot: Int, occurrence: Int, error: (any Error)?,
        details: () -> [String: String]
    ) {
        // Named by the first type counted there; a report counted as `other sites` names its own.
        let site = key.site(type: slot < SiteTally.capacity ? tally.key(at: slot).type : type)
        let report = PetalDiagnostic(
            kind: key.kind, site: site, occurrence: occurrence, details: details(), error: error)
        // The default handler only queues a line: it cannot report again.
        if handler.isDefault { return handler.body(report) }
        // A report raised by the handler itself (it resolved a promise twice, dropped one
        // unresolved, ...) would call it again, and again: it goes to the default handler.
        guard !insideHandler.isSet else { return printFirstAtEachSite(report) }
        insideHandler.whileSet { handler.body(report) }
    }

    /// Called by the timer thread (or a clock's own ``DeadlineTimer``, `ownTimer`) for each
    /// deadline action it is about to run: reports it if it is ``lateTimerThreshold`` or more
    /// behind its `deadline`.
    ///
    /// - Returns: Whether the action was late, and so reported.
    @discardableResult
    static func reportLateTimer(
        deadline: ContinuousClock.Instant, ranAt: ContinuousClock.Instant, ownTimer: Bool = false
    ) -> Bool {
        let lateness = deadline.duration(to: ranAt)
        guard lateness >= lateTimerThreshold else { return false }
        let (seconds, attoseconds) = lateness.components
        var details = ["lateness": "\(seconds * 1_000 + attoseconds / 1_000_000_000_000_000) ms"]
        if ownTimer { details["timer"] = "the clock's own" }
        report(.timer, details: details)
        return true
    }

    /// An installed handler. A struct, for the reason `HandlerSlot` gives.
    struct Handler: Sendable {
        let body: @Sendable (PetalDiagnostic) -> Void
        /// Whether this is the default handler as installed at start: it ignores every report
        /// but a site's first, so those need not even be built.
        var isDefault = false

        init(_ body: @escaping @Sendable (PetalDiagnostic) -> Void, isDefault: Bool = false) {
            (self.body, self.isDefault) = (body, isDefault)
        }
    }

    /// The handler, read with one atomic load, never a lock (see `HandlerSlot`).
    private static let installed = HandlerSlot(Handler(printFirstAtEachSite, isDefault: true))

    /// Set on a thread while it runs an installed handler.
    private static let insideHandler = ThreadFlag()
}
