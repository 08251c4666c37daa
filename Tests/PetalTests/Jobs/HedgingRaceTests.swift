import Foundation
import Synchronization
import Testing

@testable import Petal

/// A copy of a hedged call: a promise whose stop is counted.
private struct CountedCopy: Sendable {
    let promise = Promise<Int>(onRepeatedResolution: .ignore)
    let stops = Counter()

    init() {
        promise.cancelWhenRequested { [stops] in stops.increment() }
    }
}

/// Hedged calls raced on two threads: the first answer, a request and the timer. Every copy that
/// did not answer is asked to stop exactly once, and the call resolves once, with an answer that
/// was given (or cancelled by the request).
@Suite("Jobs: hedged calls raced", .serialized)
struct HedgingRaceTests {
    @Test("a copy's answer racing a request, over 100,000 hedged calls of three copies")
    func answerRacesRequest() {
        let racer = Racer()
        defer { racer.stop() }
        let perRound = 16
        let rounds = raceScaled(100_000 / perRound)
        var wrongStops = 0
        var unresolved = 0
        var wrongValues = 0
        var fulfilled = 0
        for round in 0..<rounds {
            let copies = (0..<perRound).map { _ in [CountedCopy(), CountedCopy(), CountedCopy()] }
            let calls = copies.map { call in
                let made = Counter()
                return Future.hedging(HedgingPolicy(copies: 3, delay: .zero)) {
                    made.increment()
                    return call[made.value - 1].promise.future
                }
            }
            // Which copies' fulfilments won, as (call, copy). A Recorder (NSLock): TSan cannot see
            // Synchronization.Mutex's ordering and reports the two threads' writes as a race.
            let answered = Recorder<[Int]>()
            let headStart = (round &* 7919) % 2000
            racer.round(
                round,
                {
                    if headStart >= 1000 { spin(headStart - 1000) }
                    for (index, call) in copies.enumerated() where call[0].promise.fulfil(with: 100) {
                        answered.record([index, 0])
                    }
                },
                {
                    if headStart < 1000 { spin(headStart) }
                    for (index, call) in copies.enumerated() {
                        if index % 2 == 0 {
                            calls[index].requestCancellation()
                        } else if call[1].promise.fulfil(with: 200) {
                            answered.record([index, 1])
                        }
                    }
                })
            var given = Array(repeating: [false, false, false], count: perRound)
            for pair in answered.events { given[pair[0]][pair[1]] = true }
            for index in 0..<perRound {
                for copy in 0..<3 {
                    // Asked once exactly when it did not answer (its fulfilment lost to the stop).
                    if copies[index][copy].stops.value != (given[index][copy] ? 0 : 1) { wrongStops += 1 }
                }
                switch calls[index].peek() {
                case nil: unresolved += 1
                case .fulfilled(let value)?:
                    fulfilled += 1
                    if !(value == 100 && given[index][0]) && !(value == 200 && given[index][1]) { wrongValues += 1 }
                case .cancelled?: if index % 2 == 1 { wrongValues += 1 }  // only a request cancels
                case .rejected?: wrongValues += 1
                }
            }
        }
        #expect(wrongStops == 0)
        #expect(unresolved == 0)
        #expect(wrongValues == 0)
        #expect(fulfilled > rounds * perRound / 2, "\(fulfilled) fulfilled")
    }

    @Test("a copy's answer racing the timer that starts the next copy, over 100,000 hedged calls")
    func answerRacesTimer() {
        let racer = Racer()
        defer { racer.stop() }
        let perRound = 16
        let rounds = raceScaled(100_000 / perRound)
        var wrongStops = 0
        var notFulfilled = 0
        var secondCopies = 0
        var timersLeft = 0
        for round in 0..<rounds {
            let clock = DeadlineClock.manual()
            let copies = (0..<perRound).map { _ in [CountedCopy(), CountedCopy()] }
            let made = copies.map { _ in Counter() }
            let calls = copies.indices.map { index in
                Future.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(1)), clock: clock) {
                    made[index].increment()
                    return copies[index][made[index].value - 1].promise.future
                }
            }
            let headStart = (round &* 7919) % 2000
            racer.round(
                round,
                {
                    if headStart >= 1000 { spin(headStart - 1000) }
                    for call in copies { call[0].promise.fulfil(with: 100) }
                },
                {
                    if headStart < 1000 { spin(headStart) }
                    clock.advance(by: .milliseconds(1))
                })
            for index in 0..<perRound {
                // The first copy always answers; the second, if it started, is asked once.
                if copies[index][0].stops.value != 0 { wrongStops += 1 }
                if made[index].value == 2 {
                    secondCopies += 1
                    if copies[index][1].stops.value != 1 { wrongStops += 1 }
                }
                if describe(calls[index].peek()) != "fulfilled(100)" { notFulfilled += 1 }
            }
            timersLeft += clock.pendingDeadlineCount
        }
        #expect(wrongStops == 0)
        #expect(notFulfilled == 0)
        #expect(timersLeft == 0)
        #expect(secondCopies > 0 && secondCopies < rounds * perRound, "\(secondCopies) second copies")
    }
}
