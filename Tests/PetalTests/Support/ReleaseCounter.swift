/// Counts its own release into a shared counter: a stop that captures one shows when its holder
/// (a batch, a record) lets the stop go.
final class ReleaseCounter: Sendable {
    private let counter: Counter

    init(_ counter: Counter) {
        self.counter = counter
    }

    /// Called from the stop, so that the stop captures the token.
    func touch() {}

    deinit { counter.increment() }
}
