#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A job was started a second time: the start was ignored.
public struct RepeatedJobStart: Sendable, CustomStringConvertible {
    /// The job's dynamic type (for a subclass, the subclass).
    public let jobType: Any.Type
    /// The state the job was in when the repeated start arrived (``JobState/enqueued`` or
    /// later; a cancelled job is never reported, as starting it is expected to do nothing).
    public let state: JobState

    /// One line naming the job and its state.
    public var description: String {
        "Petal: ignored a second start of \(jobType) (it is \(state)); a job starts once"
    }
}

extension PetalDiagnostics {
    /// Called, on the offending thread, for every ignored second start of a ``Job``.
    ///
    /// The default prints the report's one-line description to standard error. Replace it to
    /// route reports to your logger, count them, or fail a test.
    public static var repeatedJobStartHandler: @Sendable (RepeatedJobStart) -> Void {
        get { jobStartHandler.withLock { $0.body } }
        set { jobStartHandler.withLock { $0.body = newValue } }
    }

    /// The default handler for repeated job starts: one line on standard error.
    public static let printJobStartToStandardError: @Sendable (RepeatedJobStart) -> Void = { report in
        var line = report.description + "\n"
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// In a concrete struct for the reason given for ``repeatedResolutionHandler``.
    private struct JobStartHandler: Sendable {
        var body: @Sendable (RepeatedJobStart) -> Void
    }

    private static let jobStartHandler = PosixLock(JobStartHandler(body: printJobStartToStandardError))

    static func report(_ report: RepeatedJobStart) {
        repeatedJobStartHandler(report)
    }
}
