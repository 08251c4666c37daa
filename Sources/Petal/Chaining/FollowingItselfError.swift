/// The error of a future asked to follow itself: the closure of a future-returning step
/// (`then`, `recover`, `flattened()`'s inner future, `Future.startFollowing(on:executing:)`)
/// returned the very future that the step made.
///
/// Such a future would wait for its own outcome for ever, so it is rejected with this error at
/// once, and the mistake is reported through ``PetalDiagnostics`` as an
/// ``PetalDiagnostic/Kind/adjustedArgument`` (site: the method). Only the direct case is
/// caught: a longer cycle (a step returning a future that follows this one) is not looked for,
/// as finding it would cost every step a walk of the chain (see <doc:BadInput>).
public struct FollowingItselfError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The method whose closure returned its own future, such as `"Future.then(on:_:)"`.
    public let method: String

    /// Creates the error for `method`, whose closure returned the future `method` returned.
    public init(method: String) {
        self.method = method
    }

    /// One line naming the method.
    public var description: String {
        "the closure of \(method) returned the future \(method) made, which would wait for itself for ever"
    }
}

extension FutureStorage {
    /// Rejects this future, which the closure of `method` returned as its own work, and reports
    /// it. Cold: never inlined.
    @usableFromInline
    @inline(never)
    final func failFollowingItself(_ method: StaticString) {
        PetalDiagnostics.report(
            .named(.adjustedArgument, method),
            details: [
                "given": "its own future, returned by its closure", "used": "a rejection with FollowingItselfError",
            ])
        fail(.rejected, error: FollowingItselfError(method: "\(method)"))
    }
}
