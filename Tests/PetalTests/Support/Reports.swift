import Petal

// The diagnostics handlers are process-wide and tests run in parallel, so the test process
// installs one recording handler of each kind, once, and each test looks only at reports about
// its own sites (its promises' creation lines, its own job types). Each recording handler then
// passes the report on to the default handler, so the default output behaves the same whether
// or not the recorder was installed yet, and the output tests can check it.

/// Every repeated resolution reported in the test process, once it is first used.
let repeatedResolutions: Recorder<RepeatedResolution> = {
    let recorder = Recorder<RepeatedResolution>()
    PetalDiagnostics.repeatedResolutionHandler = { report in
        recorder.record(report)
        PetalDiagnostics.printToStandardError(report)
    }
    return recorder
}()

/// Every repeated job start reported in the test process, once it is first used.
let repeatedJobStarts: Recorder<RepeatedJobStart> = {
    let recorder = Recorder<RepeatedJobStart>()
    PetalDiagnostics.repeatedJobStartHandler = { report in
        recorder.record(report)
        PetalDiagnostics.printJobStartToStandardError(report)
    }
    return recorder
}()

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
