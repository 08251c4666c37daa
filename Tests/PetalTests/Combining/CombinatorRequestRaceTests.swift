import Testing

@testable import Petal

/// A combinator's request racing its inputs' resolution: the crash of "Six bugs a user hits".
///
/// A request on the combined future decides it (cancelled) without being one of its inputs, so
/// every input may still contribute after it; the last contribution used to complete the
/// combinator too, and take the combined future a second time (a null pointer dereferenced, as
/// the example service did under wrk when clients left with requests in flight).
@Suite("Combinators: a request racing the inputs", .serialized)
struct CombinatorRequestRaceTests {
    /// The combinators raced, each a way to combine `futures` into one future to ask.
    static let forms: [String] = [
        "fulfillingWhen", "fulfillingWhen(a, b, c, d)", "allResolved", "allResolved(a, b, c, d)", "firstResolved",
        "firstFulfilled", "fulfillingWhen behind a timeout",
    ]

    /// The timeouts' clock: a manual one, so that the continuous clock's count of pending
    /// deadlines, which the timeout tests compare, never sees this test's.
    static let timeoutClock = DeadlineClock.manual()

    /// Combines `futures` (four) as `form` does; returns the future to ask and a check that it
    /// resolved.
    static func combine(_ form: String, _ futures: [Future<Int>]) -> (ask: @Sendable () -> Void, isResolved: () -> Bool)
    {
        func pair<Value: Sendable>(_ future: Future<Value>) -> (ask: @Sendable () -> Void, isResolved: () -> Bool) {
            ({ future.requestCancellation() }, { future.isResolved })
        }
        switch form {
        case "fulfillingWhen": return pair(Future.fulfillingWhen(futures))
        case "fulfillingWhen(a, b, c, d)":
            return pair(Future.fulfillingWhen(futures[0], futures[1], futures[2], futures[3]))
        case "allResolved": return pair(Future.allResolved(futures))
        case "allResolved(a, b, c, d)": return pair(Future.allResolved(futures[0], futures[1], futures[2], futures[3]))
        case "firstResolved": return pair(Future.firstResolved(of: futures))
        case "firstFulfilled": return pair(Future.firstFulfilled(of: futures))
        default: return pair(Future.fulfillingWhen(futures).timeout(after: .seconds(3600), clock: timeoutClock))
        }
    }

    @Test(
        "every combined future resolves once, and a stop runs only where the request won, over 100,000 raced combinators",
        arguments: forms)
    func requestRacesInputs(form: String) {
        let racer = Racer()
        defer { racer.stop() }
        // Each round races a batch: this thread asks the combined futures in order while the
        // helper fulfils their inputs in order, so the request meets the inputs of the one or
        // two combinators where the two threads cross, at a different step in every round (the
        // head start varies). A batch costs one start barrier instead of sixteen.
        let perRound = 16
        let rounds = raceScaled(100_000 / perRound)
        var unresolved = 0
        var stopsWhereResolutionWon = 0
        var inputsCancelled = 0
        var stopsRun = 0
        for round in 0..<rounds {
            let stops = Counter()
            let promises = (0..<perRound * 4).map { _ in Promise<Int>(onRepeatedResolution: .ignore) }
            for promise in promises { promise.cancelWhenRequested { stops.increment() } }
            let combined = (0..<perRound).map { batch in
                Self.combine(form, promises[(batch * 4)..<(batch * 4 + 4)].map(\.future))
            }
            let headStart = (round &* 7919) % 4000
            let fulfilled = Counter()
            racer.round(
                round,
                {
                    if headStart < 2000 { spin(headStart) }
                    for each in combined { each.ask() }
                },
                {
                    if headStart >= 2000 { spin(headStart - 2000) }
                    for (index, promise) in promises.enumerated() where promise.fulfil(with: index) {
                        fulfilled.increment()
                    }
                })
            unresolved += combined.count { !$0.isResolved() }
            let cancelled = promises.count { $0.future.peek()?.isCancelled == true }
            if fulfilled.value + cancelled != promises.count { stopsWhereResolutionWon += 1 }
            inputsCancelled += cancelled
            stopsRun += stops.value
        }
        #expect(unresolved == 0)
        #expect(stopsWhereResolutionWon == 0)
        // Exactly one stop for each input the request's votes cancelled, none for the others.
        #expect(stopsRun == inputsCancelled)
        #expect(inputsCancelled > 0)
    }
}
