/// What a promise says it is: the state of its future, and, for a debugger, where it was made.
///
/// ```swift
/// let promise = Promise<Int>()
/// promise.reject(with: Boom())
/// print(promise)                   // Promise<Int>(rejected: Boom())
/// debugPrint(promise)              // Petal.Promise<Swift.Int>(rejected: App.Boom(); created at App/Fetch.swift:12)
/// ```
///
/// As a future's (see ``Future``), every description is a snapshot: one acquire load of the
/// future's word, with no lock, stale perhaps as soon as it is made, and no observation of a
/// failure.
extension Promise: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The promise for a log: the type, and its future's state and value or error, such as
    /// `Promise<Int>(pending)` or `Promise<Int>(fulfilled: 42)`.
    ///
    /// One acquire load, lock-free; a snapshot that may be stale at once.
    public var description: String {
        "\(StateText.typeName(of: Promise.self, debug: false))(\(StateText.text(of: storageSnapshot, debug: false)))"
    }

    /// The promise for a debugger: as ``description``, with the types qualified by their module,
    /// the value and error as `debugPrint` shows them, and the promise's creation site, such as
    /// `Petal.Promise<Swift.Int>(pending; created at App/Fetch.swift:12)`.
    ///
    /// One acquire load, lock-free; a snapshot that may be stale at once.
    public var debugDescription: String {
        let state = StateText.text(of: storageSnapshot, debug: true)
        return "\(StateText.typeName(of: Promise.self, debug: true))(\(state); created at \(createdAt))"
    }

    /// The promise's structure for `dump` and a debugger: its future's `state`, then its
    /// `value`, its `error`, or a cancellation's `indirectError`; then `createdAt`, the
    /// promise's creation site.
    ///
    /// One acquire load, lock-free, when the mirror is made; a snapshot that may be stale at
    /// once.
    public var customMirror: Mirror {
        let children = StateText.children(of: storageSnapshot) + [(label: "createdAt", value: createdAt)]
        return Mirror(self, children: children, displayStyle: .class)
    }

    /// The future's outcome, read as its description reads it.
    private var storageSnapshot: Outcome<Value>? { withStorage { $0.snapshot() } }

    /// Where the promise was created: `App/Fetch.swift:12`.
    private var createdAt: String { "\(site.fileID):\(site.line)" }
}
