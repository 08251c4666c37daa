/// What a combinator does with each input's outcome, shared by all its inputs
/// (``Callback/input(_:index:)``): each input's callback holds this and its own index.
///
/// Why: a callback closure that captures its input's index needs a context of its own, one
/// allocation per input; a combinator of N inputs then makes one receiver instead of N
/// contexts. The closure is formed where the combinator's types are concrete, so the
/// contribution runs specialised code.
@usableFromInline
final class InputReceiver<Value>: Sendable {
    /// Receives input `index`'s outcome.
    @usableFromInline
    let receive: @Sendable (Int, Outcome<Value>) -> Void

    @inlinable
    init(_ receive: @escaping @Sendable (Int, Outcome<Value>) -> Void) {
        self.receive = receive
    }
}
