/// The indirect error of a ``Future/firstFulfilled(of:cancellingUpstream:)`` future whose inputs all failed: how each
/// one failed, in input order.
public struct AllFuturesFailedError: Error, CustomStringConvertible {
    /// How each input failed, in input order: `.rejected` with its error, or `.cancelled` with its
    /// indirect error (possibly `nil`). Never `.fulfilled`: a fulfilled input would have won.
    public let failures: [Outcome<Never>]

    /// Creates the error for inputs that failed as `failures`, in input order.
    public init(failures: [Outcome<Never>]) {
        self.failures = failures
    }

    /// Each input's error, in input order: the rejection error, or the cancellation's indirect
    /// error (`nil` for a cancellation without one).
    public var errors: [(any Error)?] {
        failures.map(\.error)
    }

    /// One line listing every input's failure, in input order.
    public var description: String {
        let each = failures.enumerated().map { index, failure in
            switch failure {
            case .rejected(let error):
                return "#\(index) rejected with \(error)"
            case .cancelled(indirectError: .some(let error)):
                return "#\(index) cancelled because of \(error)"
            case .cancelled(indirectError: .none):
                return "#\(index) cancelled"
            }
        }
        return "all \(failures.count) futures failed: \(each.joined(separator: "; "))"
    }
}
