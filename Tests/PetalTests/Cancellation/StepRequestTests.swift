import Dispatch
import Testing

@testable import Petal

/// A backend call as a service writes one: a promise whose stop is counted, registered before
/// the future is handed out.
final class StoppableCall: Sendable {
    let promise = Promise<Int>(onRepeatedResolution: .ignore)
    let stops = Counter()

    init() {
        let stops = stops
        promise.cancelWhenRequested { stops.increment() }
    }

    var future: Future<Int> { promise.future }
}

@Suite("Cancellation: a request reaches the work a step started")
struct StepRequestTests {
    @Test("a request on then's future after its closure ran reaches the future the closure returned, once")
    func thenPassesOn() {
        let head = Promise<Int>()
        let call = StoppableCall()
        let step = head.future.then { _ in call.future }
        head.fulfil(with: 1)
        step.requestCancellation()
        step.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(describe(call.future.peek()) == "cancelled(nil)")
        #expect(describe(step.peek()) == "cancelled(nil)")
    }

    @Test("a request on recover's future after its closure ran reaches the future the closure returned, once")
    func recoverPassesOn() {
        let head = Promise<Int>()
        let call = StoppableCall()
        let step = head.future.recover { _ in call.future }
        head.reject(with: TestError(1))
        step.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(describe(step.peek()) == "cancelled(nil)")
    }

    @Test("a request on a flattened future reaches the inner future, once")
    func flattenedPassesOn() {
        let outer = Promise<Future<Int>>()
        let call = StoppableCall()
        let flat = outer.future.flattened()
        outer.fulfil(with: call.future)
        flat.requestCancellation()
        flat.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(describe(flat.peek()) == "cancelled(nil)")
    }

    @Test("a request on additionally's future after its closure ran reaches the future the closure returned")
    func additionallyPassesOn() {
        let head = Promise<Int>()
        let call = StoppableCall()
        let step = head.future.additionally { _ in call.future }
        head.fulfil(with: 1)
        step.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(step.peek()?.isCancelled == true)
    }

    @Test("the request is a vote: the step's future resolves as the work it asked does")
    func stepFollowsTheAskedWork() {
        let head = Promise<Int>()
        let work = Promise<Int>()
        let asked = Counter()
        work.whenCancellationRequested { asked.increment() }  // hears it, and answers anyway
        let step = head.future.then { _ in work.future }
        head.fulfil(with: 1)
        step.requestCancellation()
        #expect(asked.value == 1)
        #expect(step.peek() == nil)
        work.fulfil(with: 7)
        #expect(describe(step.peek()) == "fulfilled(7)")
    }

    @Test("a timeout made before the step ran stops the work the step started")
    func timeoutStopsTheSecondCall() {
        let clock = DeadlineClock.manual()
        let head = Promise<Int>()
        let call = StoppableCall()
        let guarded = head.future.then { _ in call.future }.timeout(after: .milliseconds(20), clock: clock)
        head.fulfil(with: 1)
        #expect(call.stops.value == 0)
        clock.advance(by: .milliseconds(20))
        #expect(call.stops.value == 1)
        #expect(guarded.peek()?.error is FutureTimeoutError)
    }

    @Test("a timeout on a recover from a plain future (a cache miss, then the backend) stops the backend call")
    func timeoutStopsTheFallback() {
        let clock = DeadlineClock.manual()
        let cache = Promise<Int>()
        let call = StoppableCall()
        let guarded = cache.future.recover { _ in call.future }.timeout(after: .milliseconds(20), clock: clock)
        cache.reject(with: TestError(1))
        clock.advance(by: .milliseconds(20))
        #expect(call.stops.value == 1)
        #expect(guarded.peek()?.error is FutureTimeoutError)
    }

    @Test("a race that gives up on a step stops the work the step started; its observers find it asked")
    func raceStopsTheLoser() {
        let head = Promise<Int>()
        let other = Promise<Int>()
        let call = StoppableCall()
        let race = Future.firstResolved(of: [head.future.then { _ in call.future }, other.future])
        head.fulfil(with: 1)
        let stopsSeenByObserver = Counter()
        race.whenResolved { _ in
            for _ in 0..<call.stops.value { stopsSeenByObserver.increment() }
        }
        other.fulfil(with: 2)
        #expect(call.stops.value == 1)
        #expect(stopsSeenByObserver.value == 1)
        #expect(describe(race.peek()) == "fulfilled(2)")
    }

    @Test("work two steps returned is asked only once both steps' futures have asked")
    func sharedWorkWaitsForEveryDependent() {
        let call = StoppableCall()
        let (first, second) = (Promise<Int>(), Promise<Int>())
        let one = first.future.then { _ in call.future }
        let two = second.future.then { _ in call.future }
        first.fulfil(with: 1)
        second.fulfil(with: 2)
        #expect(call.future.dependentCountForTests == 2)
        one.requestCancellation()
        #expect(call.stops.value == 0)
        #expect(one.peek() == nil)  // it follows the shared work, still wanted by the other
        two.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(one.peek()?.isCancelled == true)
        #expect(two.peek()?.isCancelled == true)
    }

    @Test("a request before the step ran cancels its future: the closure never runs, nothing is started")
    func requestBeforeTheStep() {
        let head = Promise<Int>()
        let ran = Counter()
        let step = head.future.then { _ -> Future<Int> in
            ran.increment()
            return StoppableCall().future
        }
        step.requestCancellation()
        #expect(describe(step.peek()) == "cancelled(nil)")
        head.fulfil(with: 1)
        #expect(ran.value == 0)
    }

    @Test("a request on a step that returned a future nobody can ask cancels the step's future at once")
    func requestWhereNothingCanBeAsked() {
        let head = Promise<Int>()
        let plain = Promise<Int>()
        let step = head.future.then { _ in plain.future }
        head.fulfil(with: 1)
        step.requestCancellation()
        #expect(describe(step.peek()) == "cancelled(nil)")
        #expect(plain.future.peek() == nil)
    }

    @Test("a step that returned a future nobody can ask makes no record, and links nothing chained after it")
    func nothingToAskCostsNothing() {
        let plain = Promise<Int>()
        let step = Future.fulfilled(with: 1).then { _ in plain.future }
        let after = step.then { $0 + 1 }
        let timed = step.timeout(after: .seconds(60), clock: DeadlineClock.manual())
        #expect(!step.hasCancellationRecordForTests)
        #expect(!after.hasCancellationRecordForTests)
        #expect(!timed.hasCancellationRecordForTests)
        plain.fulfil(with: 5)
        #expect(describe(after.peek()) == "fulfilled(6)")
    }

    @Test("futures chained onto a step before it ran are its counted dependents, and their requests reach the work")
    func dependentsLinkBeforeTheStepRuns() {
        let head = Promise<Int>()
        let call = StoppableCall()
        let step = head.future.then { _ in call.future }
        let after = step.then { $0 + 1 }
        #expect(step.dependentCountForTests == 1)
        head.fulfil(with: 1)
        after.requestCancellation()
        #expect(call.stops.value == 1)
        #expect(describe(after.peek()) == "cancelled(nil)")
    }

    @Test("a request at the end of a chain of steps reaches the work of the step in flight, and no later step runs")
    func deepChain() {
        let head = Promise<Int>()
        let calls = (0..<3).map { _ in StoppableCall() }
        let laterRan = Counter()
        let end = head.future
            .then { _ in calls[0].future }
            .then { _ in calls[1].future }
            .then { _ -> Future<Int> in
                laterRan.increment()
                return calls[2].future
            }
        head.fulfil(with: 1)
        calls[0].promise.fulfil(with: 2)  // the second step runs: its call is in flight
        end.requestCancellation()
        #expect(calls.map(\.stops.value) == [0, 1, 0])
        #expect(laterRan.value == 0)
        #expect(describe(end.peek()) == "cancelled(nil)")
    }

    @Test("a step on a queue whose closure is running when the request comes still asks the future it returns")
    func requestWhileTheClosureRuns() {
        let queue = DispatchQueue(label: "step")
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let call = StoppableCall()
        let step = Future.fulfilled(with: 1).then(on: queue) { _ -> Future<Int> in
            entered.signal()
            proceed.wait()
            return call.future
        }
        entered.wait()
        step.requestCancellation()
        proceed.signal()
        queue.sync {}
        #expect(call.stops.value == 1)
        #expect(step.peek()?.isCancelled == true)
    }

    // Ported from bignerdranch/Deferred's TaskTests (testThatAndThenForwardsCancellationToSubsequentTask
    // and testThatFallbackForwardsCancellationToSubsequentTask): a finished task's `andThen` and a
    // failed task's `fallback` on an executor, cancelled, cancel the task their closure returned.
    // Petal runs no closure once its future is cancelled, so the request comes once the closure
    // has begun, as Deferred's executor lets it.

    @Test("Deferred: andThen forwards cancellation to the subsequent task")
    func deferredAndThenForwardsCancellation() {
        #expect(
            forwardsCancellation { executor, subsequentTask in
                Future.fulfilled(with: 42).then(on: executor) { _ in subsequentTask() }
            })
    }

    @Test("Deferred: fallback forwards cancellation to the subsequent task")
    func deferredFallbackForwardsCancellation() {
        #expect(
            forwardsCancellation { executor, subsequentTask in
                Future<Int>.rejected(with: TestError(1)).recover(on: executor) { _ in subsequentTask() }
            })
    }

    /// Whether a request on the future `step` makes, once its closure has begun, reaches the
    /// task that closure returns: a task that never finishes (its promise lives on), whose
    /// cancellation is awaited.
    private func forwardsCancellation(
        _ step: (DispatchQueue, @escaping @Sendable () -> Future<Int>) -> Future<Int>
    ) -> Bool {
        let executor = DispatchQueue(label: "custom executor")
        let began = DispatchSemaphore(value: 0)
        let cancelled = DispatchSemaphore(value: 0)
        let kept = Recorder<Promise<Int>>()
        let task = step(executor) {
            began.signal()
            let never = Promise<Int>()
            kept.record(never)
            never.cancelWhenRequested { cancelled.signal() }
            return never.future
        }
        began.wait()
        task.requestCancellation()
        defer { executor.sync {} }
        return cancelled.wait(timeout: .now() + 30) == .success
    }
}
