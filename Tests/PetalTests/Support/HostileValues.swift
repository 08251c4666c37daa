import Petal

/// The values a careless or hostile caller passes, for the property tests: every class of
/// `Double` and `Duration` (the special ones, the edges of each range, and random bit patterns
/// that reach everywhere between), from a seeded generator so that a failure reproduces.

/// SplitMix64: small, fast, and every seed gives a full-period stream.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

enum HostileValues {
    /// Every class of `Double`: zeros, subnormals, the edges of the normal range, infinities,
    /// NaNs (quiet, signalling, with a payload, negative), and the values around 0 and 1 that
    /// ranges are built on.
    static let specialDoubles: [Double] = [
        0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        -.leastNormalMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity,
        .nan, -.nan, .signalingNaN, Double(nan: 0x1234, signaling: false), 1, -1, 1.0.nextUp, 1.0.nextDown,
        0.5, 2, 1e-300, 1e300, 0.999_999_999_999, .ulpOfOne, .pi,
    ]

    /// A `Double` from a uniformly random bit pattern: every sign, exponent and payload, NaNs and
    /// infinities included, with the special values mixed in one time in four.
    static func double(using generator: inout SeededGenerator) -> Double {
        if generator.next() % 4 == 0 { return specialDoubles[Int(generator.next() % UInt64(specialDoubles.count))] }
        return Double(bitPattern: generator.next())
    }

    /// A `Double` in `0..<1`, or, one time in four, any `Double`: what a jitter's random pick
    /// should be, and what a careless caller might pass instead.
    static func random(using generator: inout SeededGenerator) -> Double {
        generator.next() % 4 == 0 ? double(using: &generator) : Double.random(in: 0..<1, using: &generator)
    }

    /// Every class of `Duration`: zero, the smallest steps either way, the edges of
    /// `DeadlineClock.longestWait`, the `Int64` seconds limits, and the largest and smallest
    /// representable.
    static let specialDurations: [Duration] = [
        .zero, Duration(attoseconds: 1), Duration(attoseconds: -1), .nanoseconds(1), .milliseconds(1), .seconds(1),
        .seconds(-1), .seconds(3_600), DeadlineClock.longestWait - Duration(attoseconds: 1),
        DeadlineClock.longestWait, DeadlineClock.longestWait + Duration(attoseconds: 1),
        .zero - DeadlineClock.longestWait, .seconds(Int64.max), .seconds(Int64.min),
        Duration(attoseconds: Int128.max), Duration(attoseconds: Int128.min),
    ]

    /// A `Duration` over its whole range: a random 128-bit count of attoseconds, or a random
    /// number of seconds on a log scale (most durations a caller means are short), or a special one.
    static func duration(using generator: inout SeededGenerator) -> Duration {
        switch generator.next() % 4 {
        case 0: return specialDurations[Int(generator.next() % UInt64(specialDurations.count))]
        case 1:
            let high = Int128(Int64(bitPattern: generator.next())) << 64
            return Duration(attoseconds: high | Int128(generator.next()))
        default:
            let seconds = Int64(bitPattern: generator.next() >> (generator.next() % 64))
            return .seconds(seconds) + Duration(attoseconds: Int128(generator.next() % 1_000_000_000_000_000_000))
        }
    }
}
