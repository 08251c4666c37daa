import Dispatch
import Foundation
import Petal
import Testing

// Each test pins one behaviour in which Petal differs from Daisy, the library its API grew from;
// the DocC article "Coming from Daisy" names the test beside the difference it backs. The
// assertions are on Petal's side only: each would fail if Petal behaved as Daisy does.

/// The calling thread's identity, to tell where a callback ran.
private func currentThreadID() -> UInt { UInt(pthread_self()) }

/// A job that records the thread it started on and completes with twice its input.
private final class DoublingJob: Job<Int, Int>, @unchecked Sendable {
    // @unchecked: the recorder is thread-safe.
    let startedOn = Recorder<UInt>()

    override func start(with input: Int) {
        guard begin() else { return }
        startedOn.record(currentThreadID())
        complete(with: input * 2)
    }
}

/// A job that starts and never finishes by itself; its hook records what it saw when it ran.
private final class HeldJob: Job<Int, Int>, @unchecked Sendable {
    // @unchecked: the recorders are thread-safe.
    let inputs = Recorder<Int>()
    let hookSaw = Recorder<String>()

    override func start(with input: Int) {
        guard begin() else { return }
        inputs.record(input)
    }

    override func wasCancelled(withIndirectError indirectError: (any Error)?) {
        hookSaw.record("\(state), future resolved: \(future.isResolved), same thread: \(currentThreadID())")
    }
}

@Suite("Coming from Daisy: where Petal behaves differently")
struct ComingFromDaisyTests {
    @Test("callbacks, steps and recoveries run on the resolving thread, before the resolving call returns")
    func callbacksRunInline() {
        let promise = Promise<Int>()
        let failing = Promise<Int>()
        let events = Recorder<String>()
        let ranOn = Recorder<UInt>()
        promise.future.whenFulfilled { _ in
            events.record("whenFulfilled")
            ranOn.record(currentThreadID())
        }
        let step = promise.future.then { value -> Int in
            events.record("then")
            ranOn.record(currentThreadID())
            return value + 1
        }
        let fallback = { @Sendable () -> Int in
            events.record("recover")
            ranOn.record(currentThreadID())
            return 0
        }
        let recovered = failing.future.recover(using: fallback())
        let resolverID = Recorder<UInt>()
        // Another thread resolves, so "inline" cannot be mistaken for "on the test's thread".
        let resolver = DispatchGroupBox()
        resolver.run {
            resolverID.record(currentThreadID())
            promise.fulfil(with: 1)
            failing.reject(with: TestError(1))
            events.record("resolving calls returned")
        }
        resolver.wait()
        #expect(events.events == ["whenFulfilled", "then", "recover", "resolving calls returned"])
        #expect(ranOn.events == Array(repeating: resolverID.events[0], count: 3))
        #expect(step.peek()?.value == 2)
        #expect(recovered.peek()?.value == 0)
    }

    @Test("a started job runs on the starting thread before start returns")
    func jobsStartInline() {
        let job = DoublingJob()
        let future = Future.start(running: job, with: 21)
        #expect(job.startedOn.events == [currentThreadID()])
        #expect(job.state == .completed)
        #expect(future.peek()?.value == 42)

        let chained = DoublingJob()
        let receiver = Promise<Int>()
        let result = receiver.future.then(chained)
        #expect(chained.startedOn.events.isEmpty)
        receiver.fulfil(with: 5)
        #expect(chained.startedOn.events == [currentThreadID()])
        #expect(result.peek()?.value == 10)
    }

    @Test("additionally downstream of a failure is cancelled with the error as its indirect error")
    func additionallyAfterFailureIsCancelled() {
        let ran = Counter()
        let pair = Future<Int>.rejected(with: TestError(1)).additionally { value -> Int in
            ran.increment()
            return value
        }
        #expect(describe(pair.peek()) == "cancelled(\(TestError(1)))")
        #expect(ran.value == 0)

        let job = DoublingJob()
        let jobPair = Future<Int>.rejected(with: TestError(2)).additionally(job)
        #expect(describe(jobPair.peek()) == "cancelled(\(TestError(2)))")
        #expect(job.state == .cancelled)
        #expect(job.startedOn.events.isEmpty)
    }

    @Test("additionally runs its closure on the context it is given")
    func additionallyRunsOnItsContext() {
        let context = ManualContext()
        let ran = Counter()
        let pair = Future<Int>.fulfilled(with: 1).additionally(on: context) { value -> Int in
            ran.increment()
            return value + 1
        }
        #expect(ran.value == 0)
        #expect(!pair.isResolved)
        #expect(context.runAll() == 1)
        #expect(ran.value == 1)
        #expect(pair.peek()?.value.map { "\($0.0), \($0.1)" } == "1, 2")
    }

    @Test("a recovery that declines is cancelled with the error as its indirect error")
    func declinedRecoveryIsCancelled() {
        let seen = Recorder<String>()
        let declined = Future<Int>.rejected(with: TestError(1)).recover { error -> Int? in
            seen.record("\(error)")
            return nil
        }
        #expect(seen.events == ["\(TestError(1))"])
        #expect(describe(declined.peek()) == "cancelled(\(TestError(1)))")
        // The failure keeps travelling: a catch further down still hears it.
        let heard = Recorder<String>()
        declined.catch { heard.record("\($0)") }
        #expect(heard.events == ["\(TestError(1))"])
    }

    @Test("always passes the receiver's value on, and a failure on as a cancellation")
    func alwaysPassesTheValueOn() {
        let ran = Counter()
        let value: Future<Int> = Future<Int>.fulfilled(with: 7).always { ran.increment() }
        #expect(describe(value.peek()) == "fulfilled(7)")
        let failure = Future<Int>.rejected(with: TestError(1)).always { ran.increment() }
        #expect(describe(failure.peek()) == "cancelled(\(TestError(1)))")
        #expect(ran.value == 2)

        let cleanUp = MapJob<Void, Void> { _ in ran.increment() }
        let afterJob = Future<Int>.fulfilled(with: 7).always(cleanUp)
        #expect(describe(afterJob.peek()) == "fulfilled(7)")
        #expect(ran.value == 3)
    }

    @Test("a promise dropped unresolved cancels its future and everything chained on it")
    func droppedPromiseCancelsItsFuture() throws {
        var promise: Promise<Int>? = Promise<Int>()
        let future = try #require(promise?.future)
        let step = future.then { $0 + 1 }
        #expect(!future.isResolved)
        promise = nil
        #expect(future.peek()?.isCancelled == true)
        #expect(future.peek()?.error is AbandonedPromiseError)
        #expect(step.peek()?.isCancelled == true)
        #expect(step.peek()?.error is AbandonedPromiseError)
    }

    @Test("a chained job stays pending until its receiver is fulfilled, and is enqueued only then")
    func chainedJobIsEnqueuedWhenStarted() {
        let context = ManualContext()
        let receiver = Promise<Int>()
        let job = HeldJob()
        _ = receiver.future.then(job, on: context)
        #expect(job.state == .pending)
        receiver.fulfil(with: 3)
        #expect(job.state == .enqueued)
        #expect(context.runAll() == 1)
        #expect(job.state == .executing)
        #expect(job.inputs.events == [3])

        // A job chained onto a failure goes from pending to cancelled, never enqueued or run.
        let failing = Promise<Int>()
        let never = HeldJob()
        _ = failing.future.then(never, on: context)
        #expect(never.state == .pending)
        failing.reject(with: TestError(1))
        #expect(never.state == .cancelled)
        #expect(context.runAll() == 0)
        #expect(never.inputs.events.isEmpty)
    }

    @Test("combinators and job groups are cancelled by the first failure, with its error as the indirect error")
    func combinatorsAreCancelledByAFailure() {
        let first = Promise<Int>()
        let second = Promise<Int>()
        let both = Future.fulfillingWhen([first.future, second.future])
        first.reject(with: TestError(1))
        #expect(describe(both.peek()) == "cancelled(\(TestError(1)))")
        second.fulfil(with: 2)

        let failing = MapJob<Int, Int> { _ in throw TestError(2) }
        let held = HeldJob()
        let group = Future.start(running: [held, failing], with: 1)
        #expect(describe(group.peek()) == "cancelled(\(TestError(2)))")
        // The group's first failure cancels the other jobs too.
        #expect(held.state == .cancelled)
    }

    @Test("a repeated resolution changes nothing, returns false and is reported through PetalDiagnostics")
    func repeatedResolutionIsReported() {
        _ = repeatedResolutions
        let line = UInt(#line) * 1_000
        let promise = Promise<Int>(line: line)
        #expect(promise.fulfil(with: 1))
        #expect(!promise.reject(with: TestError(1)))
        #expect(promise.future.peek()?.value == 1)
        let reported = reports(forLine: line)
        #expect(reported.map(\.attempt) == [.reject])
        #expect(repeatCount(atLine: line) == 1)
    }

    @Test("a job started again is not started twice: the repeat is reported, not trapped on")
    func repeatedJobStartIsReported() {
        let job = HeldJob()
        let reports = collectingJobStartReports(of: HeldJob.self) {
            Future.start(running: job, with: 1)
            Future.start(running: job, with: 2)
        }
        #expect(job.inputs.events == [1])
        #expect(job.state == .executing)
        #expect(reports.map(\.state) == [.executing])
    }

    @Test("wasCancelled runs on the cancelling thread, after the state moved and before the future is cancelled")
    func wasCancelledRunsBeforeTheFutureIsCancelled() {
        let job = HeldJob()
        Future.start(running: job, with: 1)
        #expect(job.cancel(withIndirectError: TestError(3)))
        #expect(job.hookSaw.events == ["cancelled, future resolved: false, same thread: \(currentThreadID())"])
        #expect(describe(job.future.peek()) == "cancelled(\(TestError(3)))")
        #expect(!job.cancel())
    }

    @Test("a job that does not override start(with:) fails instead of never finishing")
    func unimplementedJobFails() {
        let job = Job<Int, Int>()
        let future = Future.start(running: job, with: 1)
        #expect(job.state == .failed)
        #expect(future.peek()?.error is UnimplementedJobError)
    }

    @Test("an item may add itself back to the pool while it drains; it stays for the next drain")
    func poolDrainHoldsNoLock() {
        let pool = CancellationPool()
        let item = CountingCancellable { pool.add($0) }
        pool.add(item)
        pool.drain()
        #expect(item.asked.value == 1)
        pool.drain()
        #expect(item.asked.value == 2)
    }

    @Test("wait() returns the whole outcome, so a failure's error is not lost")
    func waitReturnsTheOutcome() {
        #expect(describe(Future<Int>.rejected(with: TestError(1)).wait()) == "rejected(\(TestError(1)))")
        #expect(describe(Future<Int>.cancelled(withIndirectError: TestError(2)).wait()) == "cancelled(\(TestError(2)))")
        #expect(describe(Future<Int>.fulfilled(with: 3).wait()) == "fulfilled(3)")
    }

    @Test("Task is Swift concurrency's in a file that imports Petal: Daisy's Task is Job")
    func taskIsSwiftConcurrencys() async {
        let task = Task { 21 * 2 }
        #expect(await task.value == 42)
        #expect(type(of: task) == Task<Int, Never>.self)
        let job: Job<Int, Int> = DoublingJob()
        #expect(await Future.start(running: job, with: 4).outcome.value == 8)
    }
}
