/// The one vocabulary in which futures, promises, outcomes, batches and completions say what
/// state they are in, so that a log reads the same whichever of them it printed.
///
/// Why it exists: five types describe the same four states, as text (``text(of:debug:)``) and
/// as a mirror's children (``children(of:)``); written once here, they cannot drift apart.
enum StateText {
    /// The name of a state: `pending`, `fulfilled`, `rejected` or `cancelled`.
    static func name<Value>(of outcome: Outcome<Value>?) -> String {
        switch outcome {
        case nil: "pending"
        case .fulfilled?: "fulfilled"
        case .rejected?: "rejected"
        case .cancelled?: "cancelled"
        }
    }

    /// The state with its value or error: `pending`, `fulfilled: 42`, `rejected: Boom()`,
    /// `cancelled`, or `cancelled, indirect error: Boom()`. With `debug`, the value and the
    /// error are shown as `debugPrint` shows them (a string quoted, for example).
    static func text<Value>(of outcome: Outcome<Value>?, debug: Bool) -> String {
        func shown(_ subject: Any) -> String {
            debug ? String(reflecting: subject) : String(describing: subject)
        }
        switch outcome {
        case nil: return "pending"
        case .fulfilled(let value)?: return "fulfilled: \(shown(value))"
        case .rejected(let error)?: return "rejected: \(shown(error))"
        case .cancelled(let indirectError?)?: return "cancelled, indirect error: \(shown(indirectError))"
        case .cancelled(nil)?: return "cancelled"
        }
    }

    /// The state as a mirror's children: `state` (its name), then `value` when fulfilled,
    /// `error` when rejected, or `indirectError` when cancelled with one.
    static func children<Value>(of outcome: Outcome<Value>?) -> [Mirror.Child] {
        let state: Mirror.Child = (label: "state", value: name(of: outcome))
        switch outcome {
        case nil, .cancelled(nil)?: return [state]
        case .fulfilled(let value)?: return [state, (label: "value", value: value)]
        case .rejected(let error)?: return [state, (label: "error", value: error)]
        case .cancelled(let indirectError?)?: return [state, (label: "indirectError", value: indirectError)]
        }
    }

    /// A type's name: `Future<Int>`, or with `debug` qualified by its module,
    /// `Petal.Future<Swift.Int>`.
    static func typeName(of type: Any.Type, debug: Bool) -> String {
        debug ? String(reflecting: type) : String(describing: type)
    }
}
