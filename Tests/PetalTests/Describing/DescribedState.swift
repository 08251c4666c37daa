import Petal
import Testing

/// The states every described type is tested in, with what its descriptions must show of each.
enum DescribedState: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pending, fulfilled, rejected, cancelled, cancelledWithIndirectError

    /// The states an outcome can be in: all but pending.
    static var resolved: [DescribedState] { allCases.filter { $0 != .pending } }

    /// The outcome of this state, `nil` for pending.
    var outcome: Outcome<Int>? {
        switch self {
        case .pending: nil
        case .fulfilled: .fulfilled(42)
        case .rejected: .rejected(TestError(7))
        case .cancelled: .cancelled(indirectError: nil)
        case .cancelledWithIndirectError: .cancelled(indirectError: TestError(3))
        }
    }

    /// What `description` shows between the parentheses.
    var text: String {
        switch self {
        case .pending: "pending"
        case .fulfilled: "fulfilled: 42"
        case .rejected: "rejected: TestError(code: 7)"
        case .cancelled: "cancelled"
        case .cancelledWithIndirectError: "cancelled, indirect error: TestError(code: 3)"
        }
    }

    /// What `debugDescription` shows between the parentheses: the error's type qualified.
    var debugText: String {
        text.replacingOccurrences(of: "TestError(", with: "PetalTests.TestError(")
    }

    /// The lines `dump` shows under the header for the state's children, indented by `indent`.
    func dumpLines(indent: String = "  ") -> [String] {
        switch self {
        case .pending: ["\(indent)- state: \"pending\""]
        case .fulfilled: ["\(indent)- state: \"fulfilled\"", "\(indent)- value: 42"]
        case .rejected:
            ["\(indent)- state: \"rejected\"", "\(indent)▿ error: PetalTests.TestError", "\(indent)  - code: 7"]
        case .cancelled: ["\(indent)- state: \"cancelled\""]
        case .cancelledWithIndirectError:
            [
                "\(indent)- state: \"cancelled\"", "\(indent)▿ indirectError: PetalTests.TestError",
                "\(indent)  - code: 3",
            ]
        }
    }

    /// A promise left in this state.
    func promise(fileID: StaticString = #fileID, line: UInt = #line) -> Promise<Int> {
        let promise = Promise<Int>(fileID: fileID, line: line)
        if let outcome { promise.resolve(with: outcome) }
        return promise
    }

    var testDescription: String { rawValue }
}

/// What `dump` prints for `subject`, line by line.
func dumped<Subject>(_ subject: Subject, maxItems: Int = .max) -> [String] {
    var text = ""
    dump(subject, to: &text, maxItems: maxItems)
    return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
}

/// The String a string interpolation makes of `subject`, as `print` and logs show it.
func printed<Subject>(_ subject: Subject) -> String {
    var text = ""
    print(subject, terminator: "", to: &text)
    return text
}
