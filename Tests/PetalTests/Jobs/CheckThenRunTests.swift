import Dispatch
import Synchronization
import Testing

@testable import Petal

/// A context that keeps the work handed to it, for a test to run when it chooses.
private final class HeldContext: ExecutionContext, @unchecked Sendable {
    // @unchecked: `work` is written on the test's thread before the round that runs it, and
    // the racer's start orders that write before the other thread's read.
    var work: [@Sendable () -> Void] = []

    func execute(_ work: @escaping @Sendable () -> Void) { self.work.append(work) }

    func runAll() {
        for item in work { item() }
        work = []
    }
}

/// Check-then-run: no work begins once a cancellation request has cancelled its future, or has
/// returned. A request must arrive before the work's claim (the work never runs) or after it
/// (the request is passed on to what the work started).
@Suite("Jobs: no work begins after a request", .serialized)
struct CheckThenRunTests {
    @Test("a started closure never runs once its future was cancelled by a request, over a million closures")
    func startedClosureRacesRequest() {
        let racer = Racer()
        defer { racer.stop() }
        let perRound = 64
        let rounds = raceScaled(1_000_000 / perRound)
        var ranAfterCancellation = 0
        var ran = 0
        var unresolved = 0
        for round in 0..<rounds {
            let context = HeldContext()
            let lateRuns = Counter()
            let runs = Counter()
            let futures = Mutex<[Future<Int>]>([])
            let started: [Future<Int>] = (0..<perRound).map { index in
                let asked = Promise<Int>(onRepeatedResolution: .ignore)
                asked.cancelWhenRequested {}
                return Future.startFollowing(on: context) {
                    runs.increment()
                    // The future this closure resolves, read as the closure begins.
                    if futures.withLock({ $0[index].isResolved }) { lateRuns.increment() }
                    return asked.future
                }
            }
            futures.withLock { $0 = started }
            let headStart = (round &* 7919) % 400
            racer.round(
                round,
                { context.runAll() },
                {
                    spin(headStart)
                    for future in started.reversed() { future.requestCancellation() }
                })
            ranAfterCancellation += lateRuns.value
            ran += runs.value
            unresolved += started.count { !$0.isResolved }
        }
        #expect(ranAfterCancellation == 0)
        #expect(unresolved == 0)  // every closure's future was asked and cancelled, or never ran
        // Some closures ran, some never did (at least in the rounds the racer runs in order).
        #expect(ran > 0 && ran < rounds * perRound, "\(ran) ran")
    }

    @Test("a retry's next attempt never begins after the request returned, over 150,000 raced retries")
    func retryRacesRequest() {
        let racer = Racer()
        defer { racer.stop() }
        let perRound = 8
        let rounds = raceScaled(150_000 / perRound)
        var beganAfterRequest = 0
        var notCancelled = 0
        var secondAttempts = 0
        for round in 0..<rounds {
            // How many requests have returned, made in the order of `results`.
            let returned = Counter()
            let late = Counter()
            let seconds = Counter()
            var firsts: [Promise<Int>] = []
            var results: [Future<Int>] = []
            for index in 0..<perRound {
                let first = Promise<Int>(onRepeatedResolution: .ignore)
                let attempts = Counter()
                firsts.append(first)
                results.append(
                    Future.retrying(attempts: 2) {
                        attempts.increment()
                        if attempts.value == 1 { return first.future }
                        if returned.value > index { late.increment() }
                        seconds.increment()
                        let second = Promise<Int>(onRepeatedResolution: .ignore)
                        second.cancelWhenRequested {}
                        return second.future
                    })
            }
            // A head start for either side, in turn, so that the race lands on every step.
            let headStart = (round &* 7919) % 8000
            racer.round(
                round,
                {
                    if headStart >= 4000 { spin(headStart - 4000) }
                    for first in firsts { first.reject(with: TestError(1)) }
                },
                {
                    if headStart < 4000 { spin(headStart) }
                    for result in results {
                        result.requestCancellation()
                        returned.increment()
                    }
                })
            beganAfterRequest += late.value
            secondAttempts += seconds.value
            notCancelled += results.count { $0.peek()?.isCancelled != true }
        }
        #expect(beganAfterRequest == 0)
        // The documentation: a request stops retrying and the result is cancelled, also when it
        // overlaps an attempt's rejection.
        #expect(notCancelled == 0)
        #expect(secondAttempts > 0 && secondAttempts < rounds * perRound, "\(secondAttempts) second attempts")
    }
}
