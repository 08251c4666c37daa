/// The instant by which a request's work must be done, carried with the request.
///
/// A service gives each request a deadline when it arrives (its budget counted from arrival,
/// shortened by the caller's own deadline if the request carries one, as gRPC's `grpc-timeout`
/// does), binds it with ``withValue(_:operation:)-(_,()->Result)`` around the request's handler, and
/// everything Petal does for the request then ends by it: every ``Future/timeout(after:on:clock:cancellingUpstream:)``,
/// hedge, limit wait and retry backoff, including those made later in callbacks and chaining
/// closures, which carry the deadline current where they were handed to Petal. Work asked for
/// after the deadline has passed is refused before its closure runs.
///
/// Deadlines nest by shortening: binding a deadline inside another keeps the earlier of the two,
/// so a callee can tighten its caller's deadline but never extend it (gRPC's deadline
/// propagation and Finagle's `Deadline` work the same way).
///
/// Every refusal and every end by the deadline is its ``exceededError``; operations that keep
/// time on a ``DeadlineClock`` honour only a deadline whose clock keeps the same time. See <doc:Deadlines>
/// for what honours it, what it costs, and why chained steps are not refused.
///
/// ```swift
/// let deadline = Deadline(after: .milliseconds(20), from: arrival)
/// let sum = try await Deadline.withValue(deadline) {
///     try await fanOut(request).timeout(by: deadline).value
/// }
/// ```
public struct Deadline: Sendable, CustomStringConvertible {
    /// The instant the work must be done by, on ``clock``.
    public let instant: ContinuousClock.Instant

    /// The clock the deadline is kept by: real time unless a test made it on a manual clock.
    public let clock: DeadlineClock

    /// Whether this is the binding of ``withoutValue(operation:)``: no deadline, carried as
    /// explicitly as a deadline is (``current`` reads it as `nil`).
    ///
    /// Told by a clock of its own rather than a stored flag: a deadline is then three words,
    /// which an existential holds inline, so that carrying one with a callback allocates nothing.
    var isUnbounded: Bool { clock === Self.unboundedClock }

    /// The clock of ``unbounded`` only: real time, but a clock no caller can name.
    private static let unboundedClock = DeadlineClock(scheduler: .shared)

    /// The binding of ``withoutValue(operation:)``.
    static let unbounded = Deadline(unboundedOn: unboundedClock)

    private init(unboundedOn clock: DeadlineClock) {
        instant = clock.now.advanced(by: DeadlineClock.longestWait)
        self.clock = clock
    }

    /// A deadline at `instant` on `clock` as it was bound: no bounding, for a deadline read back
    /// from where ``withValue(_:operation:)-(_,()->Result)`` put it.
    init(bound instant: ContinuousClock.Instant, clock: DeadlineClock) {
        self.instant = instant
        self.clock = clock
    }

    /// A deadline at `instant`, kept by `clock`.
    ///
    /// An instant more than ``DeadlineClock/longestWait`` (a century) from the clock's time is
    /// moved in to it and reported as an ``PetalDiagnostic/Kind/adjustedArgument``.
    public init(at instant: ContinuousClock.Instant, clock: DeadlineClock = .continuous) {
        let now = clock.now
        self.instant =
            now.duration(to: instant) < .zero - DeadlineClock.longestWait
            ? now.advanced(by: .zero - DeadlineClock.longestWait)
            : DeadlineClock.boundedDeadline(instant, after: now, for: "Deadline(at:)")
        self.clock = clock
    }

    /// A deadline `budget` after `start` (by default, the clock's time now): a request's budget
    /// counted from its arrival.
    ///
    /// A `budget` longer than ``DeadlineClock/longestWait`` is shortened to it and reported as
    /// an ``PetalDiagnostic/Kind/adjustedArgument``; a negative one gives a deadline already passed.
    public init(after budget: Duration, from start: ContinuousClock.Instant? = nil, clock: DeadlineClock = .continuous)
    {
        let bounded = DeadlineClock.boundedWait(budget, for: "Deadline(after:)")
        self.init(at: (start ?? clock.now).advanced(by: bounded), clock: clock)
    }

    /// The time left before the deadline, on its clock: zero once it has passed.
    ///
    /// For an outgoing call's own deadline header (see ``grpcTimeout``), or to decide whether
    /// there is time for optional work.
    public var remaining: Duration {
        Swift.max(clock.now.duration(to: instant), .zero)
    }

    /// Whether the deadline has passed on its clock.
    public var hasPassed: Bool {
        clock.now >= instant
    }

    /// The earlier of this deadline and `other` (this one on a tie, or when their clocks keep
    /// different times: a manual clock's instants cannot be compared with another clock's).
    public func earlier(of other: Deadline?) -> Deadline {
        guard let other, !other.isUnbounded else { return self }
        if isUnbounded { return other }
        guard other.clock.keepsTime(with: clock), other.instant < instant else { return self }
        return other
    }

    /// The time left, or that the deadline has passed.
    public var description: String {
        let left = clock.now.duration(to: instant)
        return left > .zero ? "deadline in \(left)" : "deadline passed \(.zero - left) ago"
    }

    /// The error of work that the deadline ended or refused: a ``FutureTimeoutError`` carrying
    /// ``instant``, so that a handler answers every end of a request's time alike.
    public var exceededError: FutureTimeoutError {
        FutureTimeoutError(deadline: instant)
    }
}
