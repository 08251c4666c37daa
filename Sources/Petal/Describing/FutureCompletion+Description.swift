/// What a completion says it is: which input, and how it resolved.
///
/// ```swift
/// for await completion in Future.completions(of: replicas) {
///     logger.debug("\(completion)")    // FutureCompletion<Reply>(index: 2, fulfilled: Reply(...))
/// }
/// ```
///
/// A completion is a value (its outcome was taken when the input resolved), so describing it
/// reads no shared state, takes no lock and observes nothing.
extension FutureCompletion: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The completion for a log: its type, the input's index, and the outcome's state and value
    /// or error, such as `FutureCompletion<Int>(index: 2, fulfilled: 42)` or
    /// `FutureCompletion<Int>(index: 0, cancelled, indirect error: Boom())`.
    public var description: String {
        "\(StateText.typeName(of: FutureCompletion.self, debug: false))(index: \(index), "
            + "\(StateText.text(of: outcome, debug: false)))"
    }

    /// The completion for a debugger: as ``description``, with the types qualified by their
    /// module and the value and error as `debugPrint` shows them.
    public var debugDescription: String {
        "\(StateText.typeName(of: FutureCompletion.self, debug: true))(index: \(index), "
            + "\(StateText.text(of: outcome, debug: true)))"
    }

    /// The completion's structure for `dump` and a debugger: the input's `index`, then the
    /// `outcome`, which shows its own state and value or error.
    public var customMirror: Mirror {
        let children: [Mirror.Child] = [(label: "index", value: index), (label: "outcome", value: outcome)]
        return Mirror(self, children: children, displayStyle: .struct)
    }
}
