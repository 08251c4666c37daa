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
protocol DiagnosticProbe {}

private let repeatedResolutionRecorder = Recorder<RepeatedResolution>()
private let repeatedJobStartRecorder = Recorder<RepeatedJobStart>()
private let probeRecorder = Recorder<PetalDiagnostic>()
private let adjustmentRecorder = Recorder<AdjustedArgument>()

/// Installs the recording handler, the first time it is read.
private let recordingHandler: Void = {
    PetalDiagnostics.handler = { diagnostic in
        switch diagnostic {
        case .repeatedResolution(let report): repeatedResolutionRecorder.record(report)
        case .repeatedJobStart(let report): repeatedJobStartRecorder.record(report)
        case .abandonedPromise(let report) where report.valueType is any DiagnosticProbe.Type:
            probeRecorder.record(diagnostic)
        case .unobservedFailure(let report) where report.valueType is any DiagnosticProbe.Type:
            probeRecorder.record(diagnostic)
        case .lateTimer: probeRecorder.record(diagnostic)
        case .adjustedArgument(let report): adjustmentRecorder.record(report)
        default: break
        }
        PetalDiagnostics.printFirstAtEachSite(diagnostic)
    }
}()

/// Every repeated resolution reported in the test process, once it is first used.
var repeatedResolutions: Recorder<RepeatedResolution> {
    recordingHandler
    return repeatedResolutionRecorder
}

/// Every repeated job start reported in the test process, once it is first used.
var repeatedJobStarts: Recorder<RepeatedJobStart> {
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
var adjustedArguments: Recorder<AdjustedArgument> {
    recordingHandler
    return adjustmentRecorder
}

/// Whether an adjustment of `parameter` from a value whose text starts with `given` was reported
/// since `start` (an index into ``adjustedArguments``' events, read before the call).
func adjustmentReported(_ parameter: String, given: String, since start: Int) -> Bool {
    adjustedArguments.events.dropFirst(start).contains { $0.parameter == parameter && $0.given.hasPrefix(given) }
}

/// The recorded repeats of promises created at `fileID`:`line`.
func reports(forLine line: UInt, fileID: String = #fileID) -> [RepeatedResolution] {
    repeatedResolutions.events.filter { $0.line == line && $0.fileID.description == fileID }
}

/// How many repeats `PetalDiagnostics` counted at `fileID`:`line` (0 if none).
func repeatCount(atLine line: UInt, fileID: String = #fileID) -> Int {
    repeatCounts(fileID: fileID)[line] ?? 0
}

/// How many repeats `PetalDiagnostics` counted at each line of `fileID` that has any.
func repeatCounts(fileID: String = #fileID) -> [UInt: Int] {
    var counts: [UInt: Int] = [:]
    for site in PetalDiagnostics.repeatedResolutionSites where site.fileID.description == fileID {
        counts[site.line] = site.count
    }
    return counts
}

/// How many repeated starts `PetalDiagnostics` counted for `jobType` (0 if none).
func repeatedStartCount(of jobType: Any.Type) -> Int {
    PetalDiagnostics.repeatedJobStartSites.first { ObjectIdentifier($0.jobType) == ObjectIdentifier(jobType) }?.count
        ?? 0
}
