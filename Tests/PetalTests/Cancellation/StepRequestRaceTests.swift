import Dispatch
import Testing

@testable import Petal

/// A step's closure racing a request: whatever the order, the work the closure started is asked
/// exactly once if the closure ran, and never started if it did not (Tests/Model/petal_chain_pass.pml
/// checks the same protocol exhaustively, for two threads).
@Suite("Cancellation: a request racing a step's closure", .serialized)
struct StepRequestRaceTests {
    /// How the request reaches the step's future.
    static let paths = [
        "a direct request", "a direct request, the step on a queue", "a dependent's vote", "a race that gives up",
    ]

    @Test(
        "the work a step started is asked exactly once if its closure ran, and never started otherwise",
        arguments: paths)
    func requestRacesTheStep(path: String) {
        let racer = Racer()
        defer { racer.stop() }
        let queue = DispatchQueue(label: "step")
        let rounds = raceScaled(40_000)
        var closuresRan = 0
        var closuresNotRun = 0
        var wrongStops = 0
        var pending = 0
        for round in 0..<rounds {
            let head = Promise<Int>()
            let call = StoppableCall()
            let ran = Counter()
            let work: @Sendable (Int) -> Future<Int> = { _ in
                ran.increment()
                return call.future
            }
            let step = path.contains("queue") ? head.future.then(on: queue, work) : head.future.then(work)
            let other = Promise<Int>()
            let ask: @Sendable () -> Void
            let watched: Future<Int>
            switch path {
            case "a dependent's vote":
                let after = step.then { $0 + 1 }
                ask = { after.requestCancellation() }
                watched = after
            case "a race that gives up":
                let race = Future.firstResolved(of: [step, other.future])
                ask = { other.fulfil(with: -1) }
                watched = race
            default:
                ask = { step.requestCancellation() }
                watched = step
            }
            let headStart = (round &* 7919) % 4000
            racer.round(
                round,
                {
                    if headStart < 2000 { spin(headStart) }
                    ask()
                },
                {
                    if headStart >= 2000 { spin(headStart - 2000) }
                    head.fulfil(with: round)
                })
            if path.contains("queue") { queue.sync {} }
            if ran.value == 1 { closuresRan += 1 } else { closuresNotRun += 1 }
            if call.stops.value != ran.value { wrongStops += 1 }
            if step.peek() == nil || watched.peek() == nil { pending += 1 }
        }
        #expect(wrongStops == 0)
        #expect(pending == 0)
        // Both orders happened (at least in the rounds the racer runs in turn).
        #expect(closuresRan > 0 && closuresNotRun > 0)
    }
}
