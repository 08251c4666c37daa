/// How a future resolved: fulfilled with a value, rejected with an error, or cancelled, possibly
/// because of an error elsewhere (its *indirect error*).
///
/// A future resolves exactly once; its outcome never changes afterwards.
@frozen
public enum Outcome<Value> {
    /// The work finished and produced a value.
    case fulfilled(Value)
    /// The work itself failed with an error.
    case rejected(any Error)
    /// The work was cancelled. The indirect error, when present, is the failure elsewhere that
    /// caused the cancellation (for example an upstream rejection, or an abandoned promise).
    case cancelled(indirectError: (any Error)?)
}

extension Outcome: Sendable where Value: Sendable {}

extension Outcome {
    /// The outcome's kind, as the cell carries it: the one mapping from outcomes to kinds.
    @inlinable
    var kind: OutcomeKind {
        switch self {
        case .fulfilled: .fulfilled
        case .rejected: .rejected
        case .cancelled: .cancelled
        }
    }
}

extension Outcome {
    /// The value if the outcome is `fulfilled`, otherwise `nil`.
    @inlinable
    public var value: Value? {
        if case .fulfilled(let value) = self { return value }
        return nil
    }

    /// The rejection error, or the indirect error of a cancellation; `nil` when fulfilled or
    /// cancelled without an error.
    @inlinable
    public var error: (any Error)? {
        switch self {
        case .fulfilled: return nil
        case .rejected(let error): return error
        case .cancelled(let indirectError): return indirectError
        }
    }

    /// Whether the outcome is `fulfilled`.
    @inlinable
    public var isFulfilled: Bool {
        if case .fulfilled = self { return true }
        return false
    }

    /// Whether the outcome is `rejected`.
    @inlinable
    public var isRejected: Bool {
        if case .rejected = self { return true }
        return false
    }

    /// Whether the outcome is `cancelled`, with or without an indirect error.
    @inlinable
    public var isCancelled: Bool {
        if case .cancelled = self { return true }
        return false
    }

    /// Returns the value, or throws: the rejection error when rejected, and a
    /// ``FutureCancelledError`` carrying the indirect error when cancelled.
    @inlinable
    public func get() throws -> Value {
        switch self {
        case .fulfilled(let value): return value
        case .rejected(let error): throw error
        case .cancelled(let indirectError): throw FutureCancelledError(indirectError: indirectError)
        }
    }
}

/// Thrown by ``Outcome/get()`` for a cancelled outcome.
///
/// Named so that it never shadows Swift concurrency's `CancellationError`.
public struct FutureCancelledError: Error, CustomStringConvertible {
    /// The error elsewhere that caused the cancellation, if any.
    public let indirectError: (any Error)?

    /// Creates the error for a cancellation with an optional indirect error.
    @inlinable
    public init(indirectError: (any Error)?) {
        self.indirectError = indirectError
    }

    /// A one-line description naming the indirect error, if there is one.
    public var description: String {
        guard let indirectError else { return "the future was cancelled" }
        return "the future was cancelled because of: \(indirectError)"
    }
}
