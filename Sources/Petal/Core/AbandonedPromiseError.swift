/// The indirect error of a future whose promise was dropped before resolving it.
///
/// Nothing could resolve that future any more, so Petal cancels it instead of letting its
/// waiters hang; this error says which promise was lost, by its value type and the place it was
/// created (for a job, the job's creation site).
public struct AbandonedPromiseError: Error, Sendable, CustomStringConvertible {
    /// The value type of the abandoned promise.
    public let valueType: Any.Type
    /// The file that created the promise, as `#fileID` spells it.
    public let fileID: StaticString
    /// The line that created the promise.
    public let line: UInt

    /// Creates the error for a promise of `valueType` created at `fileID`, `line`.
    public init(valueType: Any.Type, fileID: StaticString, line: UInt) {
        self.valueType = valueType
        self.fileID = fileID
        self.line = line
    }

    /// The abandoned promise in words, such as `Promise<Int> created at App/Fetch.swift:12`.
    public var promise: String { "Promise<\(valueType)> created at \(fileID):\(line)" }

    /// One line saying which promise was dropped unresolved.
    public var description: String {
        "\(promise) was dropped before it was resolved; its future was cancelled"
    }
}
