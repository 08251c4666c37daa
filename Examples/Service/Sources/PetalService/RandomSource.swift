import Synchronization

/// Cheap, thread-safe random numbers for the simulated backends: splitmix64 over one shared
/// counter.
///
/// Not `Int.random(in:)`: its `SystemRandomNumberGenerator` makes a `getrandom` system call per
/// draw, which would dominate the per-call cost the variants are compared on. Not cryptographic
/// and not meant to be: delays and hangs only need to look independent.
final class RandomSource: Sendable {
    /// The splitmix64 state: each draw advances it by the golden gamma.
    private let state: Atomic<UInt64>

    /// A source seeded from the system generator, so that runs differ.
    init() {
        state = Atomic(UInt64.random(in: .min ... .max))
    }

    /// The next 64 random bits.
    func next() -> UInt64 {
        let gamma: UInt64 = 0x9E37_79B9_7F4A_7C15
        // One relaxed add: threads drawing at once each get their own state.
        var z = state.wrappingAdd(gamma, ordering: .relaxed).newValue
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
