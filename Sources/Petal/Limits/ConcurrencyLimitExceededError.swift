/// The error of an operation that a ``ConcurrencyLimit`` refused: as many operations as it
/// allows were running and as many as it lets wait were waiting.
///
/// A service answers it at once (an HTTP `503`) rather than queueing without bound: a request
/// refused now costs the client one round trip; a request queued past its deadline costs it the
/// deadline, and the server the memory of the queue.
public struct ConcurrencyLimitExceededError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The limit's operations in flight at most.
    public let maximum: Int
    /// The limit's operations waiting at most.
    public let queue: Int

    /// The error of a limit of `maximum` operations in flight and `queue` waiting.
    public init(maximum: Int, queue: Int) {
        self.maximum = maximum
        self.queue = queue
    }

    /// Names the limit: how many in flight and how many waiting.
    public var description: String {
        "concurrency limit exceeded: \(maximum) operation(s) in flight and \(queue) waiting"
    }
}
