#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which of a power of two of stripes the running thread uses, so that threads working at once
/// mostly touch memory of their own: `StripedCounter`'s words, PetalServiceLifecycle's drain's
/// locks. `package`, so never part of the API.
package enum ThreadStripe {
    /// This thread's stripe among `1 << bits` (`bits` in 1...16): its identity, mixed (Fibonacci
    /// hashing, whose top bits depend on every bit of the identity), since thread control blocks
    /// sit megabytes apart and their low bits tell threads apart poorly. No counter is shared to
    /// choose it.
    @inlinable
    package static func ofThisThread(bits: Int) -> Int {
        #if canImport(Darwin)
            let identity = UInt(bitPattern: pthread_self())
        #else
            let identity = UInt(pthread_self())
        #endif
        return Int(
            truncatingIfNeeded: (identity &* UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64))
                >> UInt(UInt.bitWidth - bits))
    }
}
