/// A job was started a second time: the start was ignored.
public struct RepeatedJobStart: Sendable, CustomStringConvertible {
    /// The job's dynamic type (for a subclass, the subclass).
    public let jobType: Any.Type
    /// The state the job was in when the repeated start arrived (``JobState/enqueued`` or
    /// later; a cancelled job is never reported, as starting it is expected to do nothing).
    public let state: JobState
    /// Which repeated start this is for jobs of this type, in this process: 1 for the first, and
    /// each one a different number, even when several threads report at once.
    public let occurrence: Int

    /// One line naming the job and its state.
    public var description: String {
        "Petal: ignored a second start of \(jobType) (it is \(state)); a job starts once"
    }
}

/// The repeated starts counted for one job type.
public struct RepeatedJobStartSite: Sendable, CustomStringConvertible {
    /// The job type (for a subclass, the subclass).
    public let jobType: Any.Type
    /// How many repeated starts of jobs of this type were counted, in this process.
    public let count: Int

    /// One line naming the job type and its count.
    public var description: String {
        "\(jobType): \(count) repeated start\(count == 1 ? "" : "s")"
    }
}

extension PetalDiagnostics {
    /// Called for every ignored second start of a ``Job``, after it was counted.
    ///
    /// Runs on the thread that tried to start the job again, inside ``Job/begin()`` (or the
    /// `start` function that enqueued it), before that returns; concurrently from several threads
    /// if several repeat at once. A start of a cancelled job is not a repeat: it is neither
    /// counted nor reported. Keep it short and non-blocking.
    ///
    /// The default, ``printJobStartToStandardError``, writes the first repeated start of each job
    /// type to standard error and only counts the others. A handler you install receives every
    /// repeated start (``RepeatedJobStart/occurrence`` numbers them per type). Reading and calling
    /// the handler takes no lock; setting it takes one, and a replaced handler may still be
    /// called by a thread that read it just before.
    public static var repeatedJobStartHandler: @Sendable (RepeatedJobStart) -> Void {
        get { jobStartHandler.withHandler { $0.body } }
        set { jobStartHandler.replace(with: JobStartHandler(body: newValue)) }
    }

    /// The default handler for repeated job starts: the first one of each job type, as one line
    /// on standard error.
    ///
    /// Writes ``RepeatedJobStart/description`` when ``RepeatedJobStart/occurrence`` is 1 and does
    /// nothing otherwise, through the same background writer as ``printToStandardError``: the
    /// reporting thread never waits on standard error, and lines the writer cannot keep up with
    /// are dropped and counted in ``droppedLineCount``.
    public static let printJobStartToStandardError: @Sendable (RepeatedJobStart) -> Void = { report in
        guard report.occurrence == 1 else { return }
        DiagnosticOutput.write(
            report.description
                + " (later repeats of this type are only counted: PetalDiagnostics.repeatedJobStartSites)\n")
    }

    /// How many repeated job starts were counted in this process, for every job type.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var repeatedJobStartCount: Int {
        jobStartTally.snapshot.reduce(0) { $0 + $1.count }
    }

    /// Every job type with counted repeated starts, busiest first.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var repeatedJobStartSites: [RepeatedJobStartSite] {
        jobStartTally.snapshot
            .map { RepeatedJobStartSite(jobType: $0.site.jobType, count: $0.count) }
            .sorted { $0.count > $1.count }
    }

    /// In a concrete struct, for the reason ``HandlerSlot`` gives.
    struct JobStartHandler: Sendable {
        var body: @Sendable (RepeatedJobStart) -> Void
    }

    private static let jobStartHandler = HandlerSlot(JobStartHandler(body: printJobStartToStandardError))

    private static let jobStartTally = RepeatTally<JobStartSite>()

    /// Counts a repeated start of a job of `jobType` found in `state`, then calls the handler on
    /// this thread.
    static func reportRepeatedJobStart(jobType: Any.Type, state: JobState) {
        let occurrence = jobStartTally.count(JobStartSite(jobType: jobType))
        let report = RepeatedJobStart(jobType: jobType, state: state, occurrence: occurrence)
        jobStartHandler.withHandler { $0.body(report) }
    }
}

/// A job type, as the repeat tally counts it.
struct JobStartSite: TallySite {
    let jobType: Any.Type

    var tallyHash: UInt { UInt(bitPattern: ObjectIdentifier(jobType)) }

    func isSameSite(as other: JobStartSite) -> Bool {
        ObjectIdentifier(jobType) == ObjectIdentifier(other.jobType)
    }
}
