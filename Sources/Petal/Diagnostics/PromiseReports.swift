import CPetal

/// Core's hook for a promise's reports (`petal_swift_hooks.h`): a repeated resolution or an
/// abandonment, counted and told once per site.
@_cdecl("petal_swift_promise_report")
func reportPromiseEvent(_ report: UnsafeRawPointer) {
    let report = report.assumingMemoryBound(to: PromiseReport.self).pointee
    let site = report.site
    switch report.event {
    case .repeatedResolution(let attempt):
        let slot = PetalDiagnostics.report(
            .named(.repeatedResolution, site.fileID, line: site.line), type: report.valueType,
            details: [
                "attempt": ["fulfil", "reject", "cancel"][Int(attempt.rawValue)],
                "valueType": "\(report.valueType)",
            ])
        // Counted under the default handler: this thread's next repeats at the site only count
        // (Promise.reportRepeat asks the cache first).
        if let slot, let file = site.repeatCacheFile {
            petal_repeat_cache_fill(file, UInt(site.line), PetalDiagnostics.tally.countWord(of: slot))
        }
    case .abandoned:
        PetalDiagnostics.report(
            .named(.abandonedPromise, site.fileID, line: site.line), type: report.valueType,
            details: ["valueType": "\(report.valueType)"])
    case .failure:
        break
    }
}

/// Core's hook numbering a promise's site for a failure of its future: its slot in the tally,
/// plus one (0 if the tally is full; see ``SiteTally``).
@_cdecl("petal_swift_failure_site")
func failureSiteNumber(_ report: UnsafeRawPointer) -> UInt32 {
    let report = report.assumingMemoryBound(to: PromiseReport.self).pointee
    let key = SiteTally.Key.named(.unobservedFailure, report.site.fileID, line: report.site.line)
    return PetalDiagnostics.tally.slot(of: key, type: report.valueType).map { UInt32($0) + 1 } ?? 0
}
