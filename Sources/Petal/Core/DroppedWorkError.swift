/// The indirect error of a future whose work an ``ExecutionContext`` dropped without running it.
///
/// A context may let go of work it accepted (an event loop that shut down, a queue torn down
/// with work still in it). The future that work would have resolved can then never resolve, so
/// Petal cancels it with this error instead of leaving its waiters and the chain below it
/// pending forever.
public struct DroppedWorkError: Error, CustomStringConvertible {
    /// The context that dropped the work: its type's name.
    public let context: String

    /// Creates the error naming `context`.
    public init(context: String) {
        self.context = context
    }

    /// One line saying which context dropped what.
    public var description: String {
        "\(context) dropped the work that would have resolved this future, without running it"
    }
}
