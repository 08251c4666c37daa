import Petal
import Testing

@Suite("Time: hostile callers")
struct TimeHostileCallerTests {
    @Test("a manual clock moved backwards stays where it is, and says so")
    func clockMovedBackwards() {
        let start = adjustedArguments.events.count
        let clock = DeadlineClock.manual()
        let origin = clock.now
        let pending = Promise<Int>()
        // Held to the end: a promise dropped unresolved cancels its future.
        defer { withExtendedLifetime(pending) {} }
        let reply = pending.future.timeout(after: .seconds(1), clock: clock)
        clock.advance(by: .seconds(-5))
        clock.advance(to: origin.advanced(by: .seconds(-5)))
        #expect(clock.now == origin)
        #expect(reply.peek() == nil)
        #expect(adjustmentReported("DeadlineClock.advance(by:)", given: "-5", since: start))
        #expect(adjustmentReported("DeadlineClock.advance(to:)", given: "an instant 5", since: start))
        clock.advance(by: .seconds(1))
        #expect(reply.peek()?.error is FutureTimeoutError)
    }

    @Test("a manual clock advanced past a century moves by DeadlineClock.longestWait, and says so")
    func advancePastACentury() {
        let start = adjustedArguments.events.count
        let clock = DeadlineClock.manual()
        let origin = clock.now
        clock.advance(by: Duration(attoseconds: .max))
        #expect(clock.now == origin.advanced(by: DeadlineClock.longestWait))
        clock.advance(to: clock.now.advanced(by: .seconds(Int64.max)))
        #expect(clock.now == origin.advanced(by: DeadlineClock.longestWait * 2))
        #expect(adjustmentReported("DeadlineClock.advance(by:)", given: "1.7", since: start))
        #expect(adjustmentReported("DeadlineClock.advance(to:)", given: "an instant 9.2", since: start))
    }

    @Test("a manual clock started more than a century from now starts a century away", arguments: [1, -1])
    func farStart(_ direction: Int) {
        let start = adjustedArguments.events.count
        let real = ContinuousClock.now
        let clock = DeadlineClock.manual(startingAt: real.advanced(by: .seconds(Int64.max / 2) * direction))
        let offset = real.duration(to: clock.now)
        #expect(offset >= DeadlineClock.longestWait * direction - .seconds(1))
        #expect(offset <= DeadlineClock.longestWait * direction + .seconds(1))
        #expect(adjustmentReported("DeadlineClock.manual(startingAt:)", given: "an instant", since: start))
        // Deadlines measured from there compute without trapping, either way.
        let pending = Promise<Int>()
        defer { withExtendedLifetime(pending) {} }
        let reply = pending.future.timeout(after: .seconds(Int64.max), clock: clock)
        clock.advance(by: DeadlineClock.longestWait)
        #expect(reply.peek()?.error is FutureTimeoutError)
    }

    @Test("advancing the real clock stops the caller with a message naming the rule")
    func advancingRealTime() async {
        await #expect(processExitsWith: .failure) {
            DeadlineClock.continuous.advance(by: .seconds(1))
        }
    }

    @Test("an action that advances its own manual clock runs every due deadline exactly once, in order")
    func reentrantAdvance() {
        let clock = DeadlineClock.manual()
        let order = Recorder<Int>()
        let pending = (1...5).map { _ in Promise<Int>() }
        defer { withExtendedLifetime(pending) {} }
        let first = pending[0].future.timeout(after: .seconds(1), clock: clock)
        let later = (2...5).map { second in
            pending[second - 1].future.timeout(after: .seconds(Int64(second)), clock: clock)
        }
        first.whenResolved { _ in
            order.record(1)
            // From inside the clock's own advance: the nested call runs what it makes due.
            clock.advance(by: .seconds(2))
        }
        for (index, future) in later.enumerated() { future.whenResolved { _ in order.record(index + 2) } }
        clock.advance(by: .seconds(1))
        #expect(order.events == [1, 2, 3])
        clock.advance(to: clock.now.advanced(by: .seconds(10)))
        #expect(order.events == [1, 2, 3, 4, 5])
        #expect(clock.pendingDeadlineCount == 0)
    }
}
