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

    private static let jobStartTally = RepeatTally<JobStartSite>()

    /// Counts a repeated start of a job of `jobType` found in `state`, then calls the handler on
    /// this thread. A start of a cancelled job is not a repeat: the caller does not report it.
    static func reportRepeatedJobStart(jobType: Any.Type, state: JobState) {
        let occurrence = jobStartTally.count(JobStartSite(jobType: jobType))
        report(
            .repeatedJobStart(RepeatedJobStart(jobType: jobType, state: state, occurrence: occurrence)),
            occurrence: occurrence)
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
