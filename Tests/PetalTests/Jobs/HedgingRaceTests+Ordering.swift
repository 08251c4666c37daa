import Dispatch
import Synchronization
import Testing

@testable import Petal

/// One hedged call of three copies, each a promise whose stop is counted, and what its first
/// observer found when it ran.
private final class ObservedCall: Sendable {
    /// How the race's deciding party ends the call.
    enum Decision: String, CaseIterable {
        /// The first copy is fulfilled.
        case win
        /// A cancellation request on the call's future.
        case request
        /// The first copy is rejected with an error the policy declines.
        case declinedRejection
    }

    let decision: Decision
    let copies = (0..<3).map { _ in Promise<Int>(onRepeatedResolution: .ignore) }
    let stops = (0..<3).map { _ in Counter() }
    /// Bodies begun: body `n` returns `copies[n - 1]`'s future.
    let begun = Atomic<Int>(0)
    let observations = Atomic<Int>(0)
    /// Losing copies whose stop had not run when the first observer ran.
    let unaskedWhenObserved = Atomic<Int>(0)

    init(_ decision: Decision) {
        self.decision = decision
        for (promise, stops) in zip(copies, stops) {
            promise.cancelWhenRequested { stops.increment() }
        }
    }

    /// Whether copy `index` decides the call (then it is the one copy never asked).
    func decides(_ index: Int) -> Bool {
        index == 0 && decision != .request
    }

    /// The hedged call's body.
    func startCopy() -> Future<Int> {
        copies[begun.wrappingAdd(1, ordering: .relaxed).oldValue].future
    }

    /// The call's first observer: every copy begun, but the deciding one, must have been asked.
    func observe() {
        observations.add(1, ordering: .relaxed)
        for index in 0..<begun.load(ordering: .acquiring) where !decides(index) && stops[index].value == 0 {
            unaskedWhenObserved.add(1, ordering: .relaxed)
        }
    }

    /// The deciding party's move.
    func decide(_ future: Future<Int>) {
        switch decision {
        case .win: copies[0].fulfil(with: 100)
        case .request: future.requestCancellation()
        case .declinedRejection: copies[0].reject(with: TestError(1))
        }
    }

    /// The outcome the decision must give.
    var expected: String {
        switch decision {
        case .win: "fulfilled(100)"
        case .request: "cancelled(nil)"
        case .declinedRejection: "rejected(\(TestError(1)))"
        }
    }
}

extension HedgingRaceTests {
    @Test(
        "every losing copy is asked before the call's first observer runs: a win, a request, a declined rejection, inline and on a queue, over 100,000 hedged calls"
    )
    func losersAskedBeforeObservers() {
        let racer = Racer()
        defer { racer.stop() }
        let queue = DrainableQueue(DispatchQueue(label: "hedging-order"))
        let perRound = 16
        let rounds = raceScaled(100_000 / perRound)
        var unasked = 0
        var unaskedByDecision: [String: Int] = [:]
        var wrongStops = 0
        var wrongObservations = 0
        var wrongOutcomes = 0
        var begun = 0
        var asked = 0
        for round in 0..<rounds {
            let clock = DeadlineClock.manual()
            let calls = (0..<perRound).map { index in
                let call = ObservedCall(ObservedCall.Decision.allCases[(index / 2 + round) % 3])
                // Inline: copy 1 now, copies 2 and 3 on the racing thread that advances the clock.
                // On the queue: the three copies one after the other, as the queue runs them.
                let policy = HedgingPolicy(
                    copies: 3, delay: index % 2 == 0 ? .milliseconds(1) : .zero, hedgingWhen: { _ in false })
                let future =
                    index % 2 == 0
                    ? Future.hedging(policy, clock: clock) { call.startCopy() }
                    : Future.hedging(policy, on: queue, clock: clock) { call.startCopy() }
                future.whenResolved { _ in call.observe() }
                return (call, future)
            }
            let headStart = (round &* 7919) % 2000
            racer.round(
                round,
                {
                    if headStart >= 1000 { spin(headStart - 1000) }
                    clock.advance(by: .milliseconds(1))
                    clock.advance(by: .milliseconds(1))
                },
                {
                    if headStart < 1000 { spin(headStart) }
                    for (call, future) in calls { call.decide(future) }
                })
            queue.drain()
            for (call, future) in calls {
                let late = call.unaskedWhenObserved.load(ordering: .relaxed)
                unasked += late
                unaskedByDecision[call.decision.rawValue, default: 0] += late
                if call.observations.load(ordering: .relaxed) != 1 { wrongObservations += 1 }
                if describe(future.peek()) != call.expected { wrongOutcomes += 1 }
                let made = call.begun.load(ordering: .relaxed)
                begun += made
                for index in 0..<3 {
                    // Asked once exactly if begun and not the deciding copy; never otherwise.
                    let expected = index < made && !call.decides(index) ? 1 : 0
                    if call.stops[index].value != expected { wrongStops += 1 }
                    asked += call.stops[index].value
                }
            }
        }
        #expect(
            unasked == 0,
            "\(unasked) losing copies asked after the call's first observer ran, by decision \(unaskedByDecision) (\(asked) asked, \(begun) begun)"
        )
        #expect(wrongStops == 0)
        #expect(wrongObservations == 0)
        #expect(wrongOutcomes == 0)
        #expect(asked > rounds * perRound / 2, "\(asked) copies asked")
    }
}
