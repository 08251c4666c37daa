import Petal

// The diagnostics handler is process-wide and tests run in parallel, so the test process
// installs one recording handler, once, and each test looks only at reports about its own sites
// (its promises' creation lines, its own job types, value types of its own). The handler then
// passes every report on to the default handler, so the default output behaves the same whether
// or not the recorder was installed yet, and the output tests can check it.
//
// Abandoned promises and unobserved failures happen all over the suite (the soak tests drop
// failed futures by the million), so only those whose value type is a `DiagnosticProbe` are
// recorded: a recorder of everything would grow the heap the soak tests measure.

/// A value type whose abandoned promises and unobserved failures the recording handler keeps.
/// Its name must contain `Probe`: the handler sees the value type as text.
protocol DiagnosticProbe {}

private let repeatedResolutionRecorder = Recorder<PetalDiagnostic>()
private let repeatedJobStartRecorder = Recorder<PetalDiagnostic>()
private let probeRecorder = Recorder<PetalDiagnostic>()
private let adjustmentRecorder = Recorder<PetalDiagnostic>()
private let breakerRecorder = Recorder<PetalDiagnostic>()

/// Installs the recording handler, the first time it is read.
private let recordingHandler: Void = {
    PetalDiagnostics.handler = { report in
        switch report.kind {
        case .repeatedResolution: repeatedResolutionRecorder.record(report)
        case .repeatedJobStart: repeatedJobStartRecorder.record(report)
        case .abandonedPromise, .unobservedFailure:
            if report.details["valueType"]?.contains("Probe") == true { probeRecorder.record(report) }
        case .lateTimer: probeRecorder.record(report)
        case .adjustedArgument: adjustmentRecorder.record(report)
        case .circuitBreakerStateChanged: breakerRecorder.record(report)
        }
        PetalDiagnostics.printFirstAtEachSite(report)
    }
}()

/// Every repeated resolution reported in the test process, once it is first used.
var repeatedResolutions: Recorder<PetalDiagnostic> {
    recordingHandler
    return repeatedResolutionRecorder
}

/// Every repeated job start reported in the test process, once it is first used.
var repeatedJobStarts: Recorder<PetalDiagnostic> {
    recordingHandler
    return repeatedJobStartRecorder
}

/// Every abandoned promise and unobserved failure of a `DiagnosticProbe` value type, and every
/// late timer, reported in the test process once it is first used.
var probeDiagnostics: Recorder<PetalDiagnostic> {
    recordingHandler
    return probeRecorder
}

/// Every adjusted argument reported in the test process, once it is first used.
var adjustedArguments: Recorder<PetalDiagnostic> {
    recordingHandler
    return adjustmentRecorder
}

/// Every circuit breaker's change of state reported in the test process, once it is first used.
var breakerStateChanges: Recorder<PetalDiagnostic> {
    recordingHandler
    return breakerRecorder
}

/// The facts tests read most, by the names the per-kind reports once had.
extension PetalDiagnostic {
    /// What a repeated resolution tried to do.
    enum Attempt: String { case fulfil, reject, cancel }

    /// A repeated resolution's attempt.
    var attempt: Attempt? { details["attempt"].flatMap(Attempt.init(rawValue:)) }
    /// A promise site's report: the site, as the reports once named it.
    var promise: String { "\(site)" }
    /// The value type of a repeated resolution, an abandoned promise or an unobserved failure.
    var valueType: String? { details["valueType"] }
    /// The state of a job started again.
    var state: JobState? {
        (0...5).lazy.compactMap { JobState(rawValue: $0) }.first { "\($0)" == self.details["state"] }
    }
    /// The promise site a report is counted at, as a line, if it is one.
    var line: UInt? { site.line }
    /// An adjusted argument's parameter.
    var parameter: String { site.name }
    /// An adjusted argument's value given.
    var given: String? { details["given"] }
    /// An adjusted argument's value used.
    var used: String? { details["used"] }
    /// A late timer's lateness, as "250 ms".
    var lateness: String? { details["lateness"] }
}

/// Whether an adjustment of `parameter` from a value whose text starts with `given` was reported
/// since `start` (an index into ``adjustedArguments``' events, read before the call).
func adjustmentReported(_ parameter: String, given: String, since start: Int) -> Bool {
    adjustedArguments.events.dropFirst(start).contains {
        $0.parameter == parameter && $0.given?.hasPrefix(given) == true
    }
}

/// The recorded repeats of promises created at `fileID`:`line`.
func reports(forLine line: UInt, fileID: String = #fileID) -> [PetalDiagnostic] {
    repeatedResolutions.events.filter { $0.site.line == line && $0.site.fileID == fileID }
}

/// How many repeats `PetalDiagnostics` counted at `fileID`:`line` (0 if none).
func repeatCount(atLine line: UInt, fileID: String = #fileID) -> Int {
    repeatCounts(fileID: fileID)[line] ?? 0
}

/// How many repeats `PetalDiagnostics` counted at each line of `fileID` that has any.
func repeatCounts(fileID: String = #fileID) -> [UInt: Int] {
    var counts: [UInt: Int] = [:]
    for entry in PetalDiagnostics.sites(of: .repeatedResolution) where entry.site.fileID == fileID {
        counts[entry.site.line ?? 0] = entry.count
    }
    return counts
}

/// How many reports of `kind` `PetalDiagnostics` counted at the promise site `fileID`:`line`.
func count(of kind: PetalDiagnostic.Kind, atLine line: UInt, fileID: String = #fileID) -> Int {
    PetalDiagnostics.sites(of: kind).first { $0.site.line == line && $0.site.fileID == fileID }?.count ?? 0
}

/// How many repeated starts `PetalDiagnostics` counted for `jobType` (0 if none).
func repeatedStartCount(of jobType: Any.Type) -> Int {
    PetalDiagnostics.sites(of: .repeatedJobStart).first { $0.site.name == "\(jobType)" }?.count ?? 0
}
