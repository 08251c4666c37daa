/// What a future says it is: its state, and its value or error once it has one.
///
/// ```swift
/// let promise = Promise<Int>()
/// print(promise.future)            // Future<Int>(pending)
/// promise.fulfil(with: 42)
/// print(promise.future)            // Future<Int>(fulfilled: 42)
/// ```
///
/// Every description is a snapshot: one acquire load of the future's word, with no lock, and the
/// value or error read only when that load saw an outcome. It may be stale as soon as it is
/// made (a pending future can resolve while its description is being printed), but it is
/// never torn. Describing a future is not observing it: a failure that is only described is
/// still reported as unobserved when the future is freed (see
/// ``PetalDiagnostic/Kind/unobservedFailure``), and a debugger's `po` changes nothing.
extension Future: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The future for a log: the type, the state and the value or error, such as
    /// `Future<Int>(pending)`, `Future<Int>(fulfilled: 42)`, `Future<Int>(rejected: Boom())`,
    /// `Future<Int>(cancelled)` or `Future<User>(cancelled, indirect error: FutureTimeoutError(...))`.
    ///
    /// One acquire load, lock-free; a snapshot that may be stale at once. A resolution still
    /// being written reads as pending.
    public var description: String {
        Self.describe(storage.snapshot(), debug: false)
    }

    /// The future for a debugger: as ``description``, with the types qualified by their module
    /// and the value and error as `debugPrint` shows them, such as
    /// `Petal.Future<Swift.String>(fulfilled: "hi")`.
    ///
    /// One acquire load, lock-free; a snapshot that may be stale at once.
    public var debugDescription: String {
        Self.describe(storage.snapshot(), debug: true)
    }

    /// The future's structure for `dump` and a debugger: its `state` (`pending`, `fulfilled`,
    /// `rejected` or `cancelled`), then its `value`, its `error`, or a cancellation's
    /// `indirectError`.
    ///
    /// One acquire load, lock-free, when the mirror is made; a snapshot that may be stale at
    /// once. The mirror holds the value or error it shows.
    public var customMirror: Mirror {
        Mirror(self, children: StateText.children(of: storage.snapshot()), displayStyle: .struct)
    }

    /// `Future<Int>(fulfilled: 42)` from a snapshot of the outcome.
    private static func describe(_ outcome: Outcome<Value>?, debug: Bool) -> String {
        "\(StateText.typeName(of: Future.self, debug: debug))(\(StateText.text(of: outcome, debug: debug)))"
    }
}
