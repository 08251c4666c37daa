import Petal
import Testing

/// `duration` divided until an instant `now` away from it is representable: tests build
/// instants from hostile durations without trapping in the test itself.
private func representable(_ duration: Duration) -> Duration {
    duration.attoseconds.magnitude > (Int128.max / 4).magnitude ? duration / 4 : duration
}

@Suite("Time: timeout properties")
struct TimeoutPropertyTests {
    @Test("a timeout of any duration is due at the shorter of it and a century, and never traps")
    func anyDuration() {
        var generator = SeededGenerator(seed: 0x7133_0022)
        let durations =
            HostileValues.specialDurations + (0..<3_000).map { _ in HostileValues.duration(using: &generator) }
        for duration in durations {
            let clock = DeadlineClock.manual()
            let pending = Promise<Int>()
            // Held to the end of the round: a promise dropped unresolved cancels its future.
            defer { withExtendedLifetime(pending) {} }
            let reply = pending.future.timeout(after: duration, clock: clock)
            guard duration > .zero else {
                // Zero or less: decided at once, no timer.
                #expect(reply.peek()?.error is FutureTimeoutError, "\(duration)")
                #expect(clock.pendingDeadlineCount == 0)
                continue
            }
            let due = min(duration, DeadlineClock.longestWait)
            #expect(clock.pendingDeadlineCount == 1, "\(duration)")
            clock.advance(by: due - Duration(attoseconds: 1))
            #expect(reply.peek() == nil, "\(duration)")
            clock.advance(by: Duration(attoseconds: 1))
            let error = reply.peek()?.error as? FutureTimeoutError
            #expect(error?.duration == due, "\(duration)")
            #expect(clock.pendingDeadlineCount == 0)
        }
    }

    @Test("a timeout at any instant is due then, or a century from now at the latest, and never traps")
    func anyInstant() {
        var generator = SeededGenerator(seed: 0x7133_0023)
        let durations =
            HostileValues.specialDurations + (0..<3_000).map { _ in HostileValues.duration(using: &generator) }
        for offset in durations.map(representable) {
            let clock = DeadlineClock.manual()
            let pending = Promise<Int>()
            defer { withExtendedLifetime(pending) {} }
            let reply = pending.future.timeout(at: clock.now.advanced(by: offset), clock: clock)
            guard offset > .zero else {
                #expect(reply.peek()?.error is FutureTimeoutError, "\(offset)")
                continue
            }
            let due = min(offset, DeadlineClock.longestWait)
            clock.advance(by: due - Duration(attoseconds: 1))
            #expect(reply.peek() == nil, "\(offset)")
            clock.advance(by: Duration(attoseconds: 1))
            #expect(reply.peek()?.error is FutureTimeoutError, "\(offset)")
        }
    }

    @Test("a receiver resolved in time takes its deadline out, whatever the duration")
    func resolvedInTime() {
        var generator = SeededGenerator(seed: 0x7133_0024)
        for _ in 0..<3_000 {
            let duration = HostileValues.duration(using: &generator)
            let clock = DeadlineClock.manual()
            let promise = Promise<Int>()
            let reply = promise.future.timeout(after: duration, clock: clock)
            promise.fulfil(with: 7)
            #expect(clock.pendingDeadlineCount == 0)
            #expect(describe(reply.peek()) == (duration > .zero ? "fulfilled(7)" : describe(reply.peek())))
        }
    }
}
