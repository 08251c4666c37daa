/// The rejection error of a future returned by ``Future/timeout(after:on:clock:cancellingUpstream:)`` or
/// ``Future/timeout(at:on:clock:cancellingUpstream:)`` when the future it watches had not resolved by the deadline.
///
/// Named like ``FutureCancelledError`` so that it never shadows a timeout type of Foundation,
/// Dispatch or Swift concurrency.
public struct FutureTimeoutError: Error, Sendable, CustomStringConvertible {
    /// The instant by which the watched future had to resolve.
    public let deadline: ContinuousClock.Instant

    /// The time the watched future was given, when the timeout was set as a duration
    /// (``Future/timeout(after:on:clock:cancellingUpstream:)``); `nil` when it was set as a deadline.
    public let duration: Duration?

    /// Creates the error for a timeout that expired at `deadline`, optionally set as `duration`.
    public init(deadline: ContinuousClock.Instant, duration: Duration? = nil) {
        self.deadline = deadline
        self.duration = duration
    }

    /// One line saying that the future did not resolve in time, and how long it had if known.
    public var description: String {
        guard let duration else { return "the future did not resolve by its deadline" }
        return "the future did not resolve within \(duration)"
    }
}
