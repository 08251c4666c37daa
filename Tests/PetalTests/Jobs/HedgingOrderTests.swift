import Dispatch
import Foundation
import Petal
import Testing

/// A hedged call asks its losers before its future resolves, as combinators and timeouts do: the
/// call's first observer finds every other copy already asked, however the call ends.
@Suite("Jobs: hedging asks its losers first")
struct HedgingOrderTests {
    /// Starts a call of up to three copies, a copy every 5 ms, with an observer that records each
    /// copy's stops when it runs; `advance` lets `clock` start the copies that are due.
    private func observedCall(
        _ copies: Copies, clock: DeadlineClock,
        hedgingWhen isRetryable: @escaping @Sendable (any Error) -> Bool = {
            _ in true
        }
    ) -> (Future<Int>, Recorder<[Int]>) {
        let policy = HedgingPolicy(copies: 3, delay: .milliseconds(5), hedgingWhen: isRetryable)
        let future = Future.hedging(policy, clock: clock) { copies.start() }
        let seen = Recorder<[Int]>()
        future.whenResolved { _ in seen.record(copies.stops) }
        return (future, seen)
    }

    @Test("a request asks every pending copy before the call's observers run")
    func requestAsksFirst() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let (future, seen) = observedCall(copies, clock: clock)
        clock.advance(by: .milliseconds(10))
        future.requestCancellation()
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(seen.events == [[1, 1, 1]])
    }

    @Test("a winning copy and a declined rejection ask the others before the call's observers run")
    func decisionAsksFirst() {
        let clock = DeadlineClock.manual()
        let won = Copies()
        let (winning, seenWinning) = observedCall(won, clock: clock)
        let declined = Copies()
        let (rejected, seenRejected) = observedCall(declined, clock: clock, hedgingWhen: { _ in false })
        clock.advance(by: .milliseconds(10))
        _ = won[1].fulfil(with: 2)
        _ = declined[2].reject(with: TestError(3))
        #expect(describe(winning.peek()) == "fulfilled(2)")
        #expect(seenWinning.events == [[1, 0, 1]])
        #expect(describe(rejected.peek()) == "rejected(\(TestError(3)))")
        #expect(seenRejected.events == [[1, 1, 0]])
    }

    @Test("a copy whose body decides the call is asked before the call resolves")
    func bodyThatDecides() {
        let clock = DeadlineClock.manual()
        let copies = Copies()
        let made = Counter()
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) {
            made.increment()
            let copy = copies.start()
            // The second copy's body answers the first copy's call itself, before it returns.
            if made.value == 2 { _ = copies[0].fulfil(with: 1) }
            return copy
        }
        let seen = Recorder<[Int]>()
        future.whenResolved { _ in seen.record(copies.stops) }
        clock.advance(by: .milliseconds(5))
        #expect(describe(future.peek()) == "fulfilled(1)")
        #expect(seen.events == [[0, 1]])
    }

    @Test(
        "a request while a copy's body runs elsewhere returns at once; the call is cancelled when the body returns, its copy asked first"
    )
    func requestDuringBody() {
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let copies = Copies()
        let queue = DispatchQueue(label: "hedging-body")
        let future = Future.hedging(HedgingPolicy(copies: 2, delay: .seconds(60)), on: queue) {
            entered.signal()
            proceed.wait()
            return copies.start()
        }
        let seen = Recorder<[Int]>()
        future.whenResolved { _ in seen.record(copies.stops) }
        entered.wait()
        future.requestCancellation()
        #expect(future.peek() == nil)  // the body still runs: its copy is not asked yet
        proceed.signal()
        // The body's return resolves the call, and runs its observer, in that piece of work.
        queue.sync {}
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(seen.events == [[1]])
        #expect(copies.count == 1)
    }
}
