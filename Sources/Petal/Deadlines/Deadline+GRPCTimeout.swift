/// A deadline as gRPC carries it between services: the `grpc-timeout` header of the gRPC over
/// HTTP/2 protocol, a time left of at most eight ASCII digits and one unit letter.
///
/// Why in the core: a request's deadline is shortened by its caller's, and an outgoing call
/// passes its own on, whatever the server or client library; both directions are plain text.
extension Deadline {
    /// The longest value the header carries: eight digits.
    static let grpcTimeoutValueLimit = 99_999_999

    /// The units of `grpc-timeout`, finest first, with the nanoseconds of one.
    static let grpcTimeoutUnits: [(letter: UInt8, nanoseconds: Int64)] = [
        (UInt8(ascii: "n"), 1),
        (UInt8(ascii: "u"), 1_000),
        (UInt8(ascii: "m"), 1_000_000),
        (UInt8(ascii: "S"), 1_000_000_000),
        (UInt8(ascii: "M"), 60_000_000_000),
        (UInt8(ascii: "H"), 3_600_000_000_000),
    ]

    /// A deadline the time of a `grpc-timeout` header's value after `start` (by default, the
    /// clock's time now), or `nil` when `grpcTimeout` is not one.
    ///
    /// The value is what the gRPC over HTTP/2 specification allows and nothing else: one to
    /// eight ASCII digits, then one unit, `H` (hours), `M` (minutes), `S` (seconds),
    /// `m` (milliseconds), `u` (microseconds) or `n` (nanoseconds). No sign, space, other digit
    /// or ninth digit: a header is input from a client, and one that is not exactly this is
    /// ignored rather than guessed at. A zero value is accepted (a deadline already passed, as
    /// the caller meant). The longest, 99999999H (11 400 years), is shortened to
    /// ``DeadlineClock/longestWait`` without a diagnostic: a client's value is not the
    /// program's mistake.
    ///
    /// Pass the request's arrival as `start`, and bind the earlier of this and the server's own
    /// budget (``earlier(of:)``): a caller may shorten a request's time, never extend it.
    public init?(
        grpcTimeout: some StringProtocol, from start: ContinuousClock.Instant? = nil,
        clock: DeadlineClock = .continuous
    ) {
        guard let budget = Self.grpcTimeoutDuration(grpcTimeout.utf8) else { return nil }
        self.init(after: budget, from: start, clock: clock)
    }

    /// The time `text` says, or `nil` when it is not a `grpc-timeout` value.
    static func grpcTimeoutDuration(_ text: some Collection<UInt8>) -> Duration? {
        var value: Int64 = 0
        var count = 0
        // Each byte is read as a digit once the next one is seen: the last is the unit.
        var previous: UInt8?
        for byte in text {
            count += 1
            // Stops at the ninth digit: a long hostile value costs no more than a valid one.
            guard count <= 9 else { return nil }
            if let digit = previous {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(digit - UInt8(ascii: "0"))
            }
            previous = byte
        }
        guard count >= 2, let unit = previous,
            let nanosecondsPerUnit = grpcTimeoutUnits.first(where: { $0.letter == unit })?.nanoseconds
        else { return nil }
        // Eight digits of hours overflow nanoseconds in Int64; seconds do not (3.6e11).
        let budget: Duration =
            nanosecondsPerUnit >= 1_000_000_000
            ? .seconds(value * (nanosecondsPerUnit / 1_000_000_000))
            : .nanoseconds(value * nanosecondsPerUnit)
        return Swift.min(budget, DeadlineClock.longestWait)
    }

    /// The time left before the deadline as a `grpc-timeout` value, for an outgoing call's
    /// header: at most eight digits, in the finest unit that holds it, rounded down (a callee
    /// must not be given longer than the caller has left). `"0n"` once the deadline has passed.
    ///
    /// Read on the clock's time now: compute it just before the call is sent.
    public var grpcTimeout: String {
        let (seconds, attoseconds) = remaining.components
        // `remaining` is at most a century (longestWait), 3.2e18 ns: within Int64.
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        for unit in Self.grpcTimeoutUnits {
            let value = nanoseconds / unit.nanoseconds
            if value <= Self.grpcTimeoutValueLimit {
                return "\(value)\(Character(Unicode.Scalar(unit.letter)))"
            }
        }
        // Unreachable: a century (the longest `remaining`) is 52 596 000 minutes.
        return "\(Self.grpcTimeoutValueLimit)H"
    }
}
