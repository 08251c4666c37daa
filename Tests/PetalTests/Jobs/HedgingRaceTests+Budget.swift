import Dispatch
import Synchronization
import Testing

@testable import Petal

/// One hedged call of three copies whose bodies are counted.
private final class CountedCall: Sendable {
    let copies = (0..<3).map { _ in Promise<Int>(onRepeatedResolution: .ignore) }
    /// Bodies begun: body `n` returns `copies[n - 1]`'s future.
    let begun = Atomic<Int>(0)

    init() {
        // A handler makes each copy one that can be asked, as a backend call is.
        for promise in copies { promise.cancelWhenRequested {} }
    }

    func startCopy() -> Future<Int> {
        copies[begun.wrappingAdd(1, ordering: .relaxed).oldValue].future
    }

    /// The extra copies whose body ran (every copy but the first).
    var extraBodies: Int {
        max(begun.load(ordering: .relaxed) - 1, 0)
    }
}

extension HedgingRaceTests {
    @Test(
        "the budget counts the extra copies whose body ran, not those decided before they started, over 40,000 hedged calls on a serial and a busy global queue"
    )
    func budgetCountsCopiesSent() {
        let racer = Racer()
        defer { racer.stop() }
        let serial = DrainableQueue(DispatchQueue(label: "hedging-budget"))
        let global = DrainableQueue(DispatchQueue.global())
        // Never refuses: every copy let through is one the budget must count, or give back.
        let budget = RetryBudget(share: Double(HedgingPolicy.maximumCopies), burst: 1_000_000)
        let perRound = 32
        let rounds = raceScaled(40_000 / perRound)
        var extraBodies = 0
        var unresolved = 0
        // Past the rounds asked for, more (up to eight times as many) until a copy was decided
        // while it waited for its turn, the case this test is for: how often the racing threads
        // land there depends on the machine and on how long a hedged call takes.
        var round = 0
        while round < rounds || (budget.extraCallsGivenBack == 0 && round < 8 * rounds) {
            defer { round += 1 }
            // Half on a serial queue, half on the global queue, all in flight at once: copies
            // wait for their turn while the racing threads decide their calls.
            let calls = (0..<perRound).map { index in
                let call = CountedCall()
                let policy = HedgingPolicy(copies: 3, delay: .zero, budget: budget)
                let future =
                    index % 2 == 0
                    ? Future.hedging(policy, on: serial) { call.startCopy() }
                    : Future.hedging(policy, on: global) { call.startCopy() }
                return (call, future)
            }
            let headStart = (round &* 7919) % 2000
            racer.round(
                round,
                {
                    if headStart >= 1000 { spin(headStart - 1000) }
                    for index in calls.indices where index % 4 < 2 { calls[index].0.copies[0].fulfil(with: 1) }
                },
                {
                    if headStart < 1000 { spin(headStart) }
                    for index in calls.indices where index % 4 >= 2 { calls[index].1.requestCancellation() }
                })
            serial.drain()
            global.drain()
            for (call, future) in calls {
                extraBodies += call.extraBodies
                if !future.isResolved { unresolved += 1 }
            }
        }
        #expect(
            budget.extraCallsSent == extraBodies,
            "\(budget.extraCallsSent) sent, \(extraBodies) bodies ran, \(budget.extraCallsGivenBack) given back")
        #expect(budget.extraCallsRefused == 0)
        #expect(unresolved == 0)
        #expect(extraBodies > 0)
        // Some copies were decided while they waited for their turn: the case this test is for.
        #expect(budget.extraCallsGivenBack > 0)
    }
}
