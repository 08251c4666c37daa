/// One thing Petal reports, of any kind: what ``PetalDiagnostics/handler`` receives.
///
/// Each report is counted at its ``site`` before it is passed on, and ``occurrence`` numbers the
/// reports of one site, so a handler that acts only on ``isFirstAtSite`` hears of each site once.
/// Every field is plain data, the same for every kind, so a logging or metrics integration needs
/// no case analysis: a level from ``severity``, metadata from ``kind``, ``site`` and ``details``,
/// a counter per ``kind``. Routing everything to swift-log takes one line:
///
/// ```swift
/// let logger = Logger(label: "petal")   // swift-log's Logger is Sendable
/// PetalDiagnostics.handler = { logger.warning("\($0)") }
/// ```
public struct PetalDiagnostic: Sendable, CustomStringConvertible {
    /// What happened. Each case names its site and the keys of its ``PetalDiagnostic/details``.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A promise was resolved again: the first resolution stands, and the call returned
        /// `false`. Site: the promise's creation site. Details: `attempt` (`fulfil`, `reject` or
        /// `cancel`), `valueType`. Promises created with ``RepeatedResolutionPolicy/ignore`` are
        /// neither counted nor reported.
        case repeatedResolution
        /// A job was started again (``JobState/enqueued`` or later; a cancelled job is never
        /// reported): the start was ignored. Site: the job's dynamic type. Details: `state`.
        case repeatedJobStart
        /// A promise was dropped unresolved: its future was cancelled with an
        /// ``AbandonedPromiseError``, so that nothing waits on it for ever, and is not also
        /// reported as an ``unobservedFailure``, nor is anything downstream. Site: the promise's
        /// creation site (a job's, for a job dropped unfinished). Details: `valueType`.
        case abandonedPromise
        /// A failed future was freed with nobody having observed its failure: a fire-and-forget
        /// chain failed, and nothing said so.
        ///
        /// A failure is a rejection, or a cancellation with an indirect error (a plain
        /// cancellation is never reported). It is *observed* once Petal hands it to someone: a
        /// callback or step that receives it (`whenResolved`, `whenRejected` on a rejection,
        /// `whenCancelled` on a cancellation, `whenAnyError`, `catch`, `recover`, `mapError`, the
        /// chaining and combining methods, a promise resolved from the future, a job chained
        /// after it; `whenFulfilled` alone does not), or a read of the outcome
        /// (``Future/peek()``, `wait`, `await`, `value`, a timeout). A step that passes a failure
        /// on (`then`, `mapError`, a `recover` that does not take indirect errors, on a
        /// cancellation) hands it to its own future, reported if nobody observes *it*: a chain of
        /// `then` steps is reported once, at its end. A step whose closure ran because of the
        /// failure (`always`, a `recover` that declines) marks what it passes on observed: a chain
        /// ending in `always` or `catch` is never reported (but a `catch` that does not take
        /// indirect errors does not observe a cancellation).
        ///
        /// Site: the creation site of the promise (or job) the failure came from; with none known
        /// (a future created failed, an error a chaining closure threw, a combinator's), the pair
        /// of value and error types. Details: `valueType` (the freed future's), `failure`
        /// (`rejected` or `cancelled`), `error` (one line); ``PetalDiagnostic/error`` is the error.
        case unobservedFailure
        /// Petal's timer thread ran a deadline's action (a timeout, a delayed retry)
        /// ``PetalDiagnostics/lateTimerThreshold`` or more late. It runs every action, and a
        /// timeout's inline callbacks with it, so this almost always means such a callback did
        /// slow work (I/O, a lock, a sleep) and held up every later deadline of the process: give
        /// that work a context of its own. Site: the timer thread. Details: `lateness` ("250 ms"),
        /// and `timer` when a clock's own ``DeadlineTimer`` (an event loop's) ran it late: its
        /// thread was busy with other work.
        case lateTimer
        /// A value passed to Petal was outside what its parameter can honour (a
        /// ``RetryPolicy/multiplier`` that is not a number, a timeout beyond
        /// ``DeadlineClock/longestWait``), and the nearest one was used, as the parameter says:
        /// nothing traps. Site: the parameter, as `Type.member` or `Type.method(label:)`.
        /// Details: `given`, `used`.
        case adjustedArgument
        /// A ``CircuitBreaker`` changed its state: it opened (its backend failed), half-opened
        /// (its open duration was over) or closed (its trial calls succeeded). Site:
        /// `CircuitBreaker`, for every breaker, so the default handler prints only the
        /// process's first change: install a handler (PetalLogging's, say) to log each one.
        /// Details: `breaker` (its name), `from` and `to` (`closed`, `open` or `half-open`).
        case circuitBreakerStateChanged

        /// How much a report of this kind matters: ``Severity/notice`` for a late timer and a
        /// breaker's change of state, ``Severity/warning`` for every other kind.
        public var severity: Severity { self == .lateTimer || self == .circuitBreakerStateChanged ? .notice : .warning }
    }

    /// How much a report matters, as a hint for the log level to use.
    public enum Severity: Sendable, Hashable, Comparable {
        /// A slowdown, not a mistake: log it as a notice.
        case notice
        /// Almost always a bug in the program: log it as a warning.
        case warning
    }

    /// Where a report is counted: a promise's creation site, a job type, a parameter, Petal's
    /// timer thread, or `CircuitBreaker`.
    public struct Site: Sendable, Hashable, CustomStringConvertible {
        /// What the site is: `Promise<Int>` (the value type counted first at a creation site), a
        /// job type's name, `RetryPolicy.multiplier`, `timer thread`, `Future<Int>, MyError` (an
        /// unobserved failure with no promise known), or `other sites` (see
        /// ``PetalDiagnostics/sites(of:)``).
        public let name: String
        /// For a promise's creation site: the file, as `#fileID` spells it.
        public let fileID: String?
        /// For a promise's creation site: the line.
        public let line: UInt?

        init(name: String, fileID: String? = nil, line: UInt? = nil) {
            (self.name, self.fileID, self.line) = (name, fileID, line)
        }

        /// The name, and for a creation site `created at fileID:line`.
        public var description: String {
            guard let fileID, let line else { return name }
            return "\(name) created at \(fileID):\(line)"
        }
    }

    /// A site and how many reports of one kind were counted there.
    public struct SiteCount: Sendable, Hashable, CustomStringConvertible {
        /// The site.
        public let site: Site
        /// How many reports were counted at the site, in this process.
        public let count: Int

        /// `site: count`.
        public var description: String { "\(site): \(count)" }
    }

    /// What happened.
    public let kind: Kind
    /// Where: the site this report was counted at.
    public let site: Site
    /// Which report of its kind this is at its site, in this process: 1 for the first, and each
    /// one a different number, even when several threads report at once.
    public let occurrence: Int
    /// The kind's facts as text, under the keys its ``Kind`` case lists: stable, for log
    /// metadata.
    public let details: [String: String]
    /// The error of an unobserved failure (the rejection's, or the cancellation's indirect
    /// error), to cast; `nil` for every other kind.
    public let error: (any Error)?

    /// How much this report matters: its kind's ``Kind/severity``.
    public var severity: Severity { kind.severity }

    /// Whether this is the first report of its kind at its site: what the default handler prints.
    public var isFirstAtSite: Bool { occurrence == 1 }

    /// The report as one line, starting with `Petal:`.
    public var description: String {
        func fact(_ key: String) -> String { details[key] ?? "?" }
        let promise = "Promise<\(fact("valueType"))> created at \(site.fileID ?? "?"):\(site.line ?? 0)"
        switch kind {
        case .repeatedResolution:
            return "Petal: ignored a second resolution (\(fact("attempt"))) of \(promise); the first one stands"
        case .repeatedJobStart:
            return "Petal: ignored a second start of \(site.name) (it is \(fact("state"))); a job starts once"
        case .abandonedPromise:
            return "Petal: \(promise) was dropped before it was resolved; its future was cancelled with "
                + "AbandonedPromiseError"
        case .unobservedFailure:
            let origin = site.fileID.map { " (from the promise created at \($0):\(site.line ?? 0))" } ?? ""
            let how = fact("failure") == "rejected" ? "rejected with" : "cancelled because of"
            return "Petal: nobody observed the failure of a Future<\(fact("valueType"))>\(origin): \(how) "
                + fact("error")
        case .lateTimer:
            if details["timer"] != nil {
                return "Petal: a clock's own timer (DeadlineClock(timer:), an event loop's) ran a deadline's action "
                    + "\(fact("lateness")) late; the thread it runs on was busy with other work"
            }
            return "Petal: the timer thread ran a deadline's action \(fact("lateness")) late; "
                + "an inline callback run by a timeout probably blocked it"
        case .adjustedArgument:
            return "Petal: \(site.name) was \(fact("given")), which it cannot honour; used \(fact("used"))"
        case .circuitBreakerStateChanged:
            return "Petal: circuit breaker \(fact("breaker")) went from \(fact("from")) to \(fact("to"))"
        }
    }
}
