/// Core's hook for a failure nobody observed (`petal_swift_hooks.h`): reported as an
/// ``PetalDiagnostic/Kind/unobservedFailure`` naming the promise site it came from, unless it
/// is an abandoned promise's cancellation (or one downstream of it), which was reported as the
/// abandonment already.
@_cdecl("petal_swift_unobserved_failure")
func reportUnobservedFailure(_ failure: UnsafeRawPointer) {
    let failure = failure.assumingMemoryBound(to: UnobservedFailure.self).pointee
    guard !(failure.error is AbandonedPromiseError) else { return }
    PetalDiagnostics.report(
        .failure(site: failure.site, valueType: failure.valueType, error: failure.error), error: failure.error,
        details: [
            "valueType": "\(failure.valueType)", "failure": failure.kind == .rejected ? "rejected" : "cancelled",
            "error": "\(failure.error)".split(whereSeparator: \.isNewline).joined(separator: " "),
        ])
}
