import Testing

@testable import Petal

/// A promise's stop never runs when the promise's own resolution won: the documentation's
/// promise, which hedging and every combinator rely on ("a loser is asked to stop only if it
/// lost"). The request's answer cancels the future first, and the stop runs only if that
/// cancellation won the future's claim.
@Suite("Cancellation: a stop runs only where the request won", .serialized)
struct StopAfterResolutionTests {
    @Test("a handler that fulfils the promise first leaves the stop unrun")
    func handlerFulfilsFirst() {
        let promise = Promise<Int>()
        let stops = Counter()
        let fulfilled = Counter()
        promise.whenCancellationRequested { [weak promise] in
            if promise?.fulfil(with: 1) == true { fulfilled.increment() }
        }
        promise.cancelWhenRequested { stops.increment() }
        promise.future.requestCancellation()
        #expect(fulfilled.value == 1)
        #expect(promise.future.peek()?.value == 1)
        #expect(stops.value == 0)
    }

    @Test("a stop registered before the handler (action zero) is not run either once the handler fulfilled")
    func actionZeroThenHandler() {
        let promise = Promise<Int>()
        let stops = Counter()
        promise.cancelWhenRequested { stops.increment() }
        promise.future.requestCancellation()
        // Action zero runs first: the request cancels, the stop runs once.
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(stops.value == 1)
    }

    @Test("a stop registered after a handler (a node) runs once when the request wins")
    func nodeAfterHandler() {
        let promise = Promise<Int>()
        let stops = Counter()
        let handled = Counter()
        promise.whenCancellationRequested { handled.increment() }
        promise.cancelWhenRequested { stops.increment() }
        promise.future.requestCancellation()
        #expect(handled.value == 1)
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(stops.value == 1)
    }

    /// The ways a request reaches a promise's stop, each raced against the promise's fulfil.
    static let paths = [
        "action zero", "a node after a handler", "two requesters", "a started closure's future", "a combinator's vote",
        "a timeout's expiry",
    ]

    @Test("raced against fulfil, the stop runs exactly where the request won", arguments: paths)
    func requestRacesFulfil(path: String) {
        let racer = Racer()
        defer { racer.stop() }
        let rounds = raceScaled(40_000)
        var requestWon = 0
        var stopsWhereFulfilWon = 0
        var stopsWhereRequestWon = 0
        var neither = 0
        for round in 0..<rounds {
            let stops = Counter()
            let promise = Promise<Int>(onRepeatedResolution: .ignore)
            if path == "a node after a handler" { promise.whenCancellationRequested {} }
            promise.cancelWhenRequested { stops.increment() }
            let asked: [@Sendable () -> Void]
            switch path {
            case "two requesters":
                let downstream = [promise.future.then { $0 }, promise.future.then { $0 }]
                asked = downstream.map { future in { future.requestCancellation() } }
            case "a started closure's future":
                let started = Future.startFollowing { promise.future }
                asked = [{ started.requestCancellation() }]
            case "a combinator's vote":
                let other = Promise<Int>()
                let combined = Future.fulfillingWhen([promise.future, other.future])
                asked = [
                    {
                        combined.requestCancellation()
                        _ = other
                    }
                ]
            case "a timeout's expiry":
                let clock = DeadlineClock.manual()
                let timed = promise.future.timeout(after: .seconds(1), clock: clock)
                asked = [{ clock.advance(by: .seconds(1)) }]
                _ = timed
            default:
                asked = [{ promise.future.requestCancellation() }]
            }
            // A head start for either side, in turn, so that the race lands on every step.
            let headStart = (round &* 7919) % 4000
            let fulfilWon = Counter()
            racer.round(
                round,
                {
                    if headStart < 2000 { spin(headStart) }
                    for ask in asked { ask() }
                },
                {
                    if headStart >= 2000 { spin(headStart - 2000) }
                    if promise.fulfil(with: round) { fulfilWon.increment() }
                })
            let cancelled = promise.future.peek()?.isCancelled == true
            if cancelled { requestWon += 1 }
            if fulfilWon.value == 1 {
                stopsWhereFulfilWon += stops.value
            } else if cancelled {
                if stops.value != 1 { stopsWhereRequestWon += 1 }
            } else {
                neither += 1
            }
        }
        #expect(neither == 0)
        #expect(stopsWhereFulfilWon == 0)
        #expect(stopsWhereRequestWon == 0)
        // Each side won some rounds (at least those the racer runs in order).
        #expect(requestWon > 0 && requestWon < rounds)
    }
}
