import CPetal
import Dispatch
import Foundation
import Testing

@testable import Petal

/// Yields until a task awaits `future` (`outcome` subscribes; `value` marks the cell PARKED,
/// under its bucket's lock, which the test's resolve or cancel then waits for), so that a test
/// resolves it, or cancels the task, only once that task has certainly parked its continuation.
private func untilSubscribed<Value>(_ future: Future<Value>) async {
    while !hasSubscriber(future) && petal_word_has_parked(petal_cell_load(future.storage.cell)) == 0 {
        await Task.yield()
    }
}

/// How many tasks wait for `future` in the parking table.
private func parkedTasks<Value>(_ future: Future<Value>) -> Int {
    ParkingLot.bucket(for: future.storage.cell).parkedTaskCount(for: future.storage.cell)
}

/// Whether `future` has a subscriber.
private func hasSubscriber<Value>(_ future: Future<Value>) -> Bool {
    petal_word_has_waiters(petal_cell_load(future.storage.cell)) != 0
}

/// A serial executor that counts the jobs enqueued on it: a task that suspends on an actor
/// using it is enqueued again to resume, so a count that does not move proves no suspension.
final class CountingExecutor: SerialExecutor {
    private let queue = DispatchQueue(label: "petal.tests.counting-executor")
    let enqueued = Counter()

    func enqueue(_ job: consuming ExecutorJob) {
        enqueued.increment()
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }
}

/// Awaits on its own counting executor and reports how often it was enqueued meanwhile.
actor SuspensionProbe {
    private let executor = CountingExecutor()

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func valueAndSuspensions(of future: Future<Int>) async throws -> (value: Int, suspensions: Int) {
        let before = executor.enqueued.value
        let value = try await future.value
        return (value, executor.enqueued.value - before)
    }

    func errorAndSuspensions(of future: Future<Int>) async -> (error: (any Error)?, suspensions: Int) {
        let before = executor.enqueued.value
        do {
            _ = try await future.value
            return (nil, executor.enqueued.value - before)
        } catch {
            return (error, executor.enqueued.value - before)
        }
    }

    func outcomeAndSuspensions(of future: Future<Int>) async -> (outcome: Outcome<Int>, suspensions: Int) {
        let before = executor.enqueued.value
        let outcome = await future.outcome
        return (outcome, executor.enqueued.value - before)
    }

    func suspensionsOfYield() async -> Int {
        let before = executor.enqueued.value
        await Task.yield()
        return executor.enqueued.value - before
    }
}

// The limit turns a lost wake-up (a task that never resumes) into a failure rather than a stalled
// run. Ten minutes, not one: in CI's ThreadSanitizer run every suite runs at once on two cores,
// and tests that block the cooperative pool's threads kept one race's awaiting task from running
// for over a minute (the test ended only as the rest of the run did; alone it takes 0.2 s).
@Suite("Swift concurrency bridge", .timeLimit(.minutes(10)))
struct ConcurrencyBridgeTests {
    // MARK: Awaiting a resolved future

    @Test("awaiting an already resolved future gives its value or outcome")
    func awaitResolved() async throws {
        #expect(try await Future<Int>.fulfilled(with: 3).value == 3)
        #expect(await Future<Int>.fulfilled(with: 4).outcome.value == 4)
        #expect(await Future<Int>.rejected(with: TestError(5)).outcome.error as? TestError == TestError(5))
    }

    @Test("awaiting an already resolved future does not suspend, where a yield does")
    func resolvedDoesNotSuspend() async throws {
        let probe = SuspensionProbe()
        // The control: the probe sees a suspension.
        #expect(await probe.suspensionsOfYield() >= 1)

        let fulfilled = try await probe.valueAndSuspensions(of: .fulfilled(with: 6))
        #expect(fulfilled.value == 6)
        #expect(fulfilled.suspensions == 0)

        let rejected = await probe.errorAndSuspensions(of: .rejected(with: TestError(7)))
        #expect(rejected.error as? TestError == TestError(7))
        #expect(rejected.suspensions == 0)

        let outcome = await probe.outcomeAndSuspensions(of: .cancelled(withIndirectError: TestError(8)))
        #expect(outcome.outcome.isCancelled)
        #expect(outcome.suspensions == 0)
    }

    @Test("awaiting a pending future from an actor suspends, then resumes on that actor")
    func pendingSuspendsOnActor() async throws {
        let probe = SuspensionProbe()
        let promise = Promise<Int>()
        let waiting = Task { try await probe.valueAndSuspensions(of: promise.future) }
        await untilSubscribed(promise.future)
        promise.fulfil(with: 9)
        let result = try await waiting.value
        #expect(result.value == 9)
        #expect(result.suspensions >= 1)
    }

    // MARK: Awaiting a pending future

    @Test("awaiting a pending future suspends until another thread fulfils it")
    func awaitPendingFulfilled() async throws {
        let promise = Promise<Int>()
        let value = Task { try await promise.future.value }
        let outcome = Task { await promise.future.outcome }
        await untilSubscribed(promise.future)
        Thread { promise.fulfil(with: 11) }.start()
        #expect(try await value.value == 11)
        #expect(await outcome.value.value == 11)
    }

    @Test("a rejected future throws its rejection error, resolved before or during the wait", arguments: [false, true])
    func awaitRejected(pending: Bool) async {
        let promise = Promise<Int>()
        if !pending { promise.reject(with: TestError(12)) }
        let waiting = Task { try await promise.future.value }
        if pending {
            await untilSubscribed(promise.future)
            promise.reject(with: TestError(12))
        }
        await #expect(throws: TestError(12)) { try await waiting.value }
        #expect(await promise.future.outcome.error as? TestError == TestError(12))
    }

    @Test("a cancelled future throws FutureCancelledError with its indirect error", arguments: [false, true])
    func awaitCancelled(pending: Bool) async {
        let promise = Promise<Int>()
        if !pending { promise.cancel(withIndirectError: TestError(13)) }
        let waiting = Task { try await promise.future.value }
        if pending {
            await untilSubscribed(promise.future)
            promise.cancel(withIndirectError: TestError(13))
        }
        let error = await #expect(throws: FutureCancelledError.self) { try await waiting.value }
        #expect(error?.indirectError as? TestError == TestError(13))
        #expect(await Future<Int>.cancelled().outcome.isCancelled)
    }

    @Test("many tasks awaiting one future on many threads all resume with its value")
    func manyTasksOneFuture() async throws {
        let promise = Promise<Int>()
        let count = scaled(200, floor: 20)
        let tasks = (0..<count).map { index in Task { try await promise.future.value + index } }
        await untilSubscribed(promise.future)
        onThreads(2) { _ in promise.fulfil(with: 1_000) }
        var sum = 0
        for task in tasks { sum += try await task.value }
        #expect(sum == count * 1_000 + count * (count - 1) / 2)
    }

    // MARK: Cancelling the awaiting task

    @Test(
        "cancelling a task awaiting a never-resolved future throws CancellationError; a later resolution changes nothing",
        arguments: [false, true])
    func cancelWhileAwaiting(dropPromise: Bool) async {
        var promise: Promise<Int>? = Promise<Int>()
        let future = promise!.future
        let waiting = Task { try await future.value }
        await untilSubscribed(future)
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        // Nothing of the wait is left: no subscriber, nothing parked. Resolving (or abandoning)
        // now must not resume the finished task again (debug builds use checked continuations,
        // which trap on a second resume).
        #expect(!hasSubscriber(future))
        #expect(parkedTasks(future) == 0)
        if dropPromise {
            promise = nil
            #expect(future.peek()?.error is AbandonedPromiseError)
        } else {
            promise?.fulfil(with: 14)
            #expect(future.peek()?.value == 14)
        }
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("tasks that give up on a future that never resolves leave nothing behind")
    func cancelledAwaitsLeaveNothing() async {
        let promise = Promise<Int>()
        let future = promise.future
        let count = scaled(1_000, floor: 100)
        let waiting = (0..<count).map { _ in Task { try await future.value } }
        while parkedTasks(future) < count { await Task.yield() }
        for task in waiting { task.cancel() }
        var cancelled = 0
        for task in waiting {
            if case .failure(is CancellationError) = await task.result { cancelled += 1 }
        }
        #expect(cancelled == count)
        #expect(parkedTasks(future) == 0)
        #expect(!hasSubscriber(future))
        #expect(!promise.isResolved)
    }

    @Test("a task cancelled before it awaits a pending future throws CancellationError without subscribing")
    func cancelledBeforeAwaiting() async {
        let promise = Promise<Int>()
        let waiting = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await promise.future.value
        }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(!hasSubscriber(promise.future))
        #expect(!promise.isResolved)
    }

    @Test("a cancelled task still gets the value of an already resolved future")
    func cancelledTaskGetsResolvedValue() async throws {
        let future = Future<Int>.fulfilled(with: 15)
        let waiting = Task {
            while !Task.isCancelled { await Task.yield() }
            return try await future.value
        }
        waiting.cancel()
        #expect(try await waiting.value == 15)
    }

    @Test("awaiting the outcome ignores the task's cancellation and returns once the future resolves")
    func outcomeIgnoresCancellation() async {
        let promise = Promise<Int>()
        let waiting = Task { await promise.future.outcome }
        await untilSubscribed(promise.future)
        waiting.cancel()
        promise.fulfil(with: 16)
        #expect(await waiting.value.value == 16)
    }

    @Test("cancellation racing the future's fulfilment: each wait ends exactly once, one way or the other")
    func cancellationRacingFulfilment() async {
        let rounds = scaled(200, floor: 20)
        var values = 0
        var cancellations = 0
        var others = 0
        for round in 0..<rounds {
            let promise = Promise<Int>()
            let waiting = Task { try await promise.future.value }
            await untilSubscribed(promise.future)
            onThreads(2) { index in
                if index == 0 { promise.fulfil(with: round) } else { waiting.cancel() }
            }
            switch await waiting.result {
            case .success(let value) where value == round: values += 1
            case .failure(is CancellationError): cancellations += 1
            default: others += 1
            }
        }
        #expect(values + cancellations == rounds)
        #expect(others == 0)
    }

    // MARK: A future from an async closure

    @Test("a future made from an async closure is fulfilled with what it returns")
    func asyncClosureReturns() async throws {
        let gate = Promise<Int>()
        let future = Future<Int> { try await gate.future.value * 2 }
        await untilSubscribed(gate.future)
        #expect(future.peek() == nil)
        gate.fulfil(with: 21)
        #expect(try await future.value == 42)
    }

    @Test("a future made from an async closure is rejected with what it throws")
    func asyncClosureThrows() async {
        let future = Future<Int> { throw TestError(17) }
        let outcome = await future.outcome
        #expect(outcome.isRejected)
        #expect(outcome.error as? TestError == TestError(17))
    }

    @Test("a thrown CancellationError cancels the future without an indirect error")
    func asyncClosureThrowsCancellation() async {
        let outcome = await Future<Int> { throw CancellationError() }.outcome
        #expect(outcome.isCancelled)
        #expect(outcome.error == nil)
    }

    @Test("a thrown FutureCancelledError cancels the future with its indirect error, so a cancellation passes through")
    func asyncClosurePassesCancellationThrough() async {
        let upstream = Future<Int>.cancelled(withIndirectError: TestError(18))
        let outcome = await Future<Int> { try await upstream.value }.outcome
        #expect(outcome.isCancelled)
        #expect(outcome.error as? TestError == TestError(18))
    }

    @Test("the async closure runs at the priority it is given")
    func asyncClosurePriority() async throws {
        let priority = try await Future<TaskPriority>(priority: .low) { Task.currentPriority }.value
        #expect(priority == .low)
    }
}
