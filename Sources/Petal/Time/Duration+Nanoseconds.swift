extension Duration {
    /// This duration in whole nanoseconds, truncated toward zero (as `components` gives them):
    /// the latencies and windows that resilience records on every call.
    ///
    /// Why not `components` alone: it divides a 128-bit count of attoseconds by 10^18, and
    /// callgrind put that at about 380 instructions a call (the breaker's window and the hedge
    /// delay's latency each read one per call). A duration under 9.2 s has its attoseconds in
    /// 64 bits, where the division by 10^9 is a multiplication; longer ones take `components`.
    var truncatedNanoseconds: Int64 {
        if let attoseconds = Int64(exactly: attoseconds) { return attoseconds / 1_000_000_000 }
        let (seconds, attoseconds) = components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
