#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A promise resolved a second time: the attempt was ignored.
public struct RepeatedResolution: Sendable, CustomStringConvertible {
    /// What the ignored call tried to do.
    public enum Attempt: String, Sendable {
        /// `fulfil(with:)`, or `resolve(with: .fulfilled)`.
        case fulfil
        /// `reject(with:)`, or `resolve(with: .rejected)`.
        case reject
        /// `cancel(withIndirectError:)`, or `resolve(with: .cancelled)`.
        case cancel
    }

    /// The promise's value type.
    public let valueType: Any.Type
    /// The file in which the promise was created.
    public let fileID: StaticString
    /// The line at which the promise was created.
    public let line: UInt
    /// The ignored attempt.
    public let attempt: Attempt

    /// The promise: its value type and creation site. Computed when read, so a report that
    /// nobody formats costs no allocation.
    public var promise: String {
        "Promise<\(valueType)> created at \(fileID):\(line)"
    }

    /// One line naming the promise and the ignored attempt.
    public var description: String {
        "Petal: ignored a second resolution (\(attempt.rawValue)) of \(promise); the first one stands"
    }
}

/// Process-wide diagnostics hooks.
public enum PetalDiagnostics {
    /// Called, on the offending thread, for every ignored second resolution of a promise.
    ///
    /// The default prints the report's one-line description to standard error. Replace it to
    /// route reports to your logger, count them, or fail a test.
    public static var repeatedResolutionHandler: @Sendable (RepeatedResolution) -> Void {
        get { handler.withLock { $0.body } }
        set { handler.withLock { $0.body = newValue } }
    }

    /// The default handler: one line on standard error.
    public static let printToStandardError: @Sendable (RepeatedResolution) -> Void = { report in
        var line = report.description + "\n"
        // write(2) rather than the C `stderr` global, which Swift 6 rightly calls shared state.
        line.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }

    /// The closure sits in a concrete struct: stored directly as the lock's generic value, each
    /// get and set would wrap it in one more reabstraction thunk, nesting without bound.
    private struct Handler: Sendable {
        var body: @Sendable (RepeatedResolution) -> Void
    }

    private static let handler = PosixLock(Handler(body: printToStandardError))

    static func report(_ report: RepeatedResolution) {
        repeatedResolutionHandler(report)
    }
}
