import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// This thread's draws for sampling: which of a ``CircuitBreaker``'s successes its window counts
/// (see `BreakerWindow.successMask`).
///
/// Why a per-thread sequence rather than a coin per call: the draws are a Weyl sequence (the
/// golden ratio's step, `petal_sample_sequence`), so under any mask a thread's chosen calls are
/// spread evenly over its calls, and the successes a window counts stand for the successes made
/// within a few draws' weight, however few they are and in whatever order calls fail (a periodic
/// pattern of failures included: the golden ratio's multiples fall evenly against any period).
/// Coins (the low bits of each call's start, as the window used before) are as fair on average,
/// but a window that a burst left holding a hundred calls read 3 failures in 10 as more than half
/// in a few percent of such windows, and opened the breaker; a coarse clock made them worse.
enum SampleDraw {
    /// 2^64 over the golden ratio, odd: its multiples are spread most evenly modulo 2^64.
    static let step: UInt64 = 0x9E37_79B9_7F4A_7C15

    /// This thread's next draw: a thread-local load, an add and a store (about 19 instructions
    /// a counted call in callgrind, reaching the thread-local included).
    @inline(__always)
    static func next() -> UInt64 {
        let slot = petal_sample_sequence_current().unsafelyUnwrapped
        var value = slot.pointee
        if _slowPath(value == 0) { value = seed() }
        value &+= step
        slot.pointee = value
        return value
    }

    /// Whether `draw` is among those a mask of `mask` (2^k - 1, k up to 6) keeps: one in
    /// `mask + 1`, those below 2^64 / (`mask` + 1) (its top k bits zero). The top bits: a Weyl
    /// sequence's low bits repeat with short periods, its top bits are the evenly spread ones.
    @inline(__always)
    static func keeps(_ draw: UInt64, mask: UInt64) -> Bool {
        (draw >> 58) &* (mask &+ 1) < 64
    }

    /// A thread's first seed: its identity and the time, mixed (SplitMix64's finaliser), so
    /// that threads that each make one call, one after another, do not all draw alike. Never 0.
    @inline(never)
    static func seed() -> UInt64 {
        #if canImport(Darwin)
            let identity = UInt64(UInt(bitPattern: pthread_self()))
        #else
            let identity = UInt64(pthread_self())
        #endif
        var mixed = identity ^ UInt64(bitPattern: DeadlineScheduler.realNanoseconds)
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 31
        return mixed | 1
    }
}
