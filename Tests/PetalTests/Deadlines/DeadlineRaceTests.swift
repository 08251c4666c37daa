import Foundation
import Petal
import Testing

/// Threads that bind different deadlines and resolve each other's futures: every callback runs
/// with the deadline of the thread that handed it over, whichever thread runs it.
@Suite("Deadlines: carried across threads", .serialized)
struct DeadlineRaceTests {
    @Test("four threads, a deadline of their own each round, resolving the next one's futures: each sees its own")
    func manyThreads() {
        let threads = 4
        let rounds = raceScaled(20_000)
        let clock = DeadlineClock.manual()
        let base = clock.now
        // Every promise made before the threads start, so that a thread never waits for another.
        let promises = (0..<threads).map { _ in (0..<rounds).map { _ in Promise<Int>() } }
        let delivered = Counter()
        let mismatched = Counter()
        let expected = { @Sendable (thread: Int, round: Int) in
            base.advanced(by: .nanoseconds(1 + thread * rounds + round))
        }
        onThreads(threads) { thread in
            for round in 0..<rounds {
                let deadline = Deadline(at: expected(thread, round), clock: clock)
                Deadline.withValue(deadline) {
                    let check = { @Sendable in
                        delivered.increment()
                        if Deadline.current?.instant != expected(thread, round) { mismatched.increment() }
                    }
                    promises[thread][round].future.whenFulfilled { _ in check() }
                    _ = promises[thread][round].future.then { value -> Int in
                        check()
                        return value
                    }
                    // Another thread's future: its callbacks run here, inside this binding, or
                    // there, inside that thread's.
                    promises[(thread + 1) % threads][round].fulfil(with: round)
                }
            }
        }
        #expect(delivered.value == 2 * threads * rounds)
        #expect(mismatched.value == 0)
        #expect(Deadline.current == nil)
    }

    @Test("two threads racing, round after round, each resolving the other's future under its own deadline")
    func pairs() {
        let rounds = raceScaled(50_000)
        let clock = DeadlineClock.manual()
        let racer = Racer()
        defer { racer.stop() }
        let delivered = Counter()
        let mismatched = Counter()
        for round in 0..<rounds {
            let mine = Deadline(after: .milliseconds(1 + round), clock: clock)
            let theirs = Deadline(after: .milliseconds(1 + round + rounds), clock: clock)
            let first = Promise<Int>()
            let second = Promise<Int>()
            let side = { @Sendable (deadline: Deadline, subscribed: Promise<Int>, resolved: Promise<Int>) in
                Deadline.withValue(deadline) {
                    subscribed.future.whenFulfilled { _ in
                        delivered.increment()
                        if Deadline.current?.instant != deadline.instant { mismatched.increment() }
                    }
                    resolved.fulfil(with: round)
                }
            }
            racer.round(round, { side(mine, first, second) }, { side(theirs, second, first) })
        }
        #expect(delivered.value == 2 * rounds)
        #expect(mismatched.value == 0)
    }
}
