/// What an outcome says it is, in the words a future uses for its state.
///
/// ```swift
/// print(Outcome<Int>.fulfilled(42))                       // Outcome<Int>(fulfilled: 42)
/// print(Outcome<Int>.cancelled(indirectError: nil))       // Outcome<Int>(cancelled)
/// ```
extension Outcome: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The outcome for a log: the type, the state and the value or error, such as
    /// `Outcome<Int>(fulfilled: 42)`, `Outcome<Int>(rejected: Boom())` or
    /// `Outcome<User>(cancelled, indirect error: FutureTimeoutError(...))`.
    ///
    /// An outcome is a value, so this reads no shared state; it neither counts as observing a
    /// failure nor changes anything.
    public var description: String {
        "\(StateText.typeName(of: Outcome.self, debug: false))(\(StateText.text(of: self, debug: false)))"
    }

    /// The outcome for a debugger: as ``description``, with the types qualified by their module
    /// and the value and error as `debugPrint` shows them, such as
    /// `Petal.Outcome<Swift.String>(fulfilled: "hi")`.
    public var debugDescription: String {
        "\(StateText.typeName(of: Outcome.self, debug: true))(\(StateText.text(of: self, debug: true)))"
    }

    /// The outcome's structure for `dump` and a debugger: its `state` (`fulfilled`, `rejected`
    /// or `cancelled`), then its `value`, its `error`, or a cancellation's `indirectError`.
    public var customMirror: Mirror {
        Mirror(self, children: StateText.children(of: self), displayStyle: .enum)
    }
}
