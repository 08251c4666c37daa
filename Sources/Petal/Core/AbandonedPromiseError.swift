/// The indirect error of a future whose promise was dropped before resolving it.
///
/// Nothing could resolve that future any more, so Petal cancels it instead of letting its
/// waiters hang; this error says which promise was lost.
public struct AbandonedPromiseError: Error, CustomStringConvertible {
    /// The abandoned promise: its value type and creation site.
    public let promise: String

    /// Creates the error naming `promise`.
    public init(promise: String) {
        self.promise = promise
    }

    /// One line saying which promise was dropped unresolved.
    public var description: String {
        "\(promise) was dropped before it was resolved; its future was cancelled"
    }
}
