/// Something that can be asked to cancel, such as a ``Job``.
///
/// A ``CancellationPool`` holds cancellables and asks them all at once. Conform your own types
/// (a network request, a timer) to put them in a pool beside jobs.
public protocol Cancellable: AnyObject, Sendable {
    /// Cancels the receiver if it is in a state where it can be cancelled; otherwise does
    /// nothing. Called on the thread that asks (for a pool, the thread that drains it); it
    /// must be safe from any thread, and may add to or drain the pool that asks it.
    func attemptCancel()
}
