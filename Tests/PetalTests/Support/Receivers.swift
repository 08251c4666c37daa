import Petal
import Testing

/// How the receiver of a chaining method resolves, for tests that try every outcome.
enum Receiver: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case fulfilled
    case rejected
    case cancelledWithError
    case cancelledWithoutError

    /// The value a fulfilled receiver carries.
    static let value = 7
    /// The error a rejected receiver carries.
    static let rejection = TestError(1)
    /// The indirect error a cancelled receiver carries.
    static let indirect = TestError(2)

    var outcome: Outcome<Int> {
        switch self {
        case .fulfilled: return .fulfilled(Receiver.value)
        case .rejected: return .rejected(Receiver.rejection)
        case .cancelledWithError: return .cancelled(indirectError: Receiver.indirect)
        case .cancelledWithoutError: return .cancelled(indirectError: nil)
        }
    }

    /// What the one failure rule makes of this receiver's failure downstream: a cancellation
    /// carrying its error (`nil` for a fulfilled receiver).
    var passedDown: String? {
        switch self {
        case .fulfilled: return nil
        case .rejected: return "cancelled(\(Receiver.rejection))"
        case .cancelledWithError: return "cancelled(\(Receiver.indirect))"
        case .cancelledWithoutError: return "cancelled(nil)"
        }
    }

    /// The error a recovery or `catch` sees, if any.
    var error: TestError? {
        switch self {
        case .fulfilled, .cancelledWithoutError: return nil
        case .rejected: return Receiver.rejection
        case .cancelledWithError: return Receiver.indirect
        }
    }

    var testDescription: String { rawValue }
}

/// Whether the receiver resolves before the chaining call or after it.
enum Timing: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case resolvedBefore
    case resolvedAfter

    var testDescription: String { rawValue }
}

/// Chains `chain` onto a receiver resolved as `receiver` says, before or after the call, and
/// returns the chained future's outcome described (inline steps have all run by then).
func chained<Output>(
    onto receiver: Receiver, _ timing: Timing, _ chain: (Future<Int>) -> Future<Output>
) -> String {
    let promise = Promise<Int>()
    if timing == .resolvedBefore { promise.resolve(with: receiver.outcome) }
    let result = chain(promise.future)
    if timing == .resolvedAfter { promise.resolve(with: receiver.outcome) }
    return describe(result.peek())
}

/// An outcome as text, so tests compare whole outcomes, errors included.
func describe<Value>(_ outcome: Outcome<Value>?) -> String {
    switch outcome {
    case nil: return "pending"
    case .fulfilled(let value)?: return "fulfilled(\(value))"
    case .rejected(let error)?: return "rejected(\(error))"
    case .cancelled(let indirectError)?: return "cancelled(\(indirectError.map { "\($0)" } ?? "nil"))"
    }
}
