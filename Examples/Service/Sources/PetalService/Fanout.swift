import NIOCore

/// One way of writing the fan-out: call `request.count` backends at once and add up their
/// answers, giving up on all of them once ``FanoutRequest/deadline`` has passed.
///
/// Every conformer gives up the same way: the calls still pending are cancelled (their timers
/// released, their handlers freed) before or just after the answer is sent, so that a request
/// leaves nothing behind. `/stats` shows whether it did.
protocol Fanout: Sendable {
    /// The variant this is, for its route and its counters.
    static var variant: Variant { get }
    /// Whether the request's 20 ms count from its arrival on the socket (stamped by the
    /// shedder), bound as `Deadline.current` around ``sum(of:on:)`` (the Petal variants); or from
    /// when the route began, by the variant's own timer (the others, which have no Deadline).
    static var deadlineFromArrival: Bool { get }

    /// The sum of every backend's answer, or `nil` when the deadline passed first.
    ///
    /// - Parameter loop: The backends' event loop, where their timers run and answer.
    /// - Throws: `ConcurrencyLimitExceededError` or ``ShuttingDownError`` for a request refused,
    ///   ``BackendUnavailableError`` when a backend call failed (`--faults`' outages): 503.
    func sum(of request: FanoutRequest, on loop: any EventLoop) async throws -> Int?

    /// Extra copies of backend calls sent so far (hedges), for `/stats`.
    var hedgesStarted: Int { get }
    /// The concurrency limit's maximum now, for a variant behind one.
    var currentLimit: Int? { get }
    /// The circuit breaker's state (`closed`, `open` or `half-open`), for a variant behind one.
    var breakerState: String? { get }
    /// A request answered 200 or 504 (`timedOut`) after `elapsed` since it arrived.
    func answered(after elapsed: Duration, timedOut: Bool)
}

extension Fanout {
    static var deadlineFromArrival: Bool { false }
    /// No hedging: no extra copies.
    var hedgesStarted: Int { 0 }
    var currentLimit: Int? { nil }
    var breakerState: String? { nil }
    func answered(after elapsed: Duration, timedOut: Bool) {}
}

/// What a request refused because the server is shutting down throws: answered with 503.
struct ShuttingDownError: Error, CustomStringConvertible {
    var description: String { "the server is shutting down" }
}
