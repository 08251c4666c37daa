import Foundation
import Testing

@testable import Petal

/// State that only isolated code may touch: the compiler refuses any other access.
private actor Ledger {
    var entries: [Int] = []
    var total = 0
    /// Set while a step runs: two steps at once would find it set.
    var inStep = false
    var overlaps = 0

    func enter() {
        if inStep { overlaps += 1 }
        inStep = true
    }

    func leave() { inStep = false }
}

/// Main-actor state, touched only by `@MainActor` closures.
@MainActor
private enum MainActorState {
    static var entries: [Int] = []
}

/// A serial executor that holds every job until the test runs them: work that is delayed, or,
/// never run, dropped (Swift concurrency cannot release a job unrun, so holding it is a drop).
private final class HoldingExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: `jobs` and `arrivals` are only touched with `lock` held.
    private let lock = NSLock()
    private var jobs: [UnownedJob] = []
    private var arrivals: [Promise<Void>] = []

    func enqueue(_ job: consuming ExecutorJob) {
        let held = UnownedJob(job)
        let waiters = lock.withLock {
            jobs.append(held)
            defer { arrivals = [] }
            return arrivals
        }
        for waiter in waiters { waiter.fulfil(with: ()) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Resolves once a job is held (at once if one is).
    func jobArrived() -> Future<Void> {
        lock.withLock {
            guard jobs.isEmpty else { return Future.fulfilled(with: ()) }
            let arrival = Promise<Void>()
            arrivals.append(arrival)
            return arrival.future
        }
    }

    /// Runs the held jobs, and those they enqueue, on this thread until none is left.
    func runAll() {
        while let job = lock.withLock({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
            job.runSynchronously(on: asUnownedSerialExecutor())
        }
    }
}

/// An actor on a ``HoldingExecutor``.
private actor HeldLedger {
    let executor = HoldingExecutor()
    var entries: [Int] = []

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}

@Suite("Observing: steps and callbacks isolated to an actor")
struct ActorExecutionContextTests {
    @Test("an isolated step reads and writes the actor's state; its value and error go on as a plain step's")
    func isolatedStep() async throws {
        let ledger = Ledger()
        let context = ActorExecutionContext(ledger)
        let promise = Promise<Int>()
        let total = promise.future.then(isolatedTo: context) { ledger, value in
            ledger.total += value
            return ledger.total
        }
        let following = total.then(isolatedTo: context) { ledger, value in
            Future.fulfilled(with: value * 10 + ledger.total)
        }
        let thrown = total.then(isolatedTo: context) { (_, _) throws -> Int in throw TestError(3) }
        promise.fulfil(with: 4)
        #expect(try await total.value == 4)
        #expect(try await following.value == 44)
        #expect(await thrown.outcome.error as? TestError == TestError(3))
        #expect(await ledger.total == 4)
    }

    @Test("a rejected receiver: the isolated step never runs and its future is cancelled; whenResolved sees it")
    func failureRule() async {
        let ledger = Ledger()
        let context = ActorExecutionContext(ledger)
        let promise = Promise<Int>()
        let step = promise.future.then(isolatedTo: context) { ledger, value in
            ledger.entries.append(value)
            return value
        }
        let seen = Promise<String>()
        promise.future.whenResolved(isolatedTo: context) { ledger, outcome in
            ledger.entries.append(-1)
            seen.fulfil(with: describe(outcome))
        }
        promise.reject(with: TestError(9))
        #expect(await seen.future.outcome.value == "rejected(TestError(code: 9))")
        let outcome = await step.outcome
        #expect(outcome.isCancelled)
        #expect(outcome.error as? TestError == TestError(9))
        #expect(await ledger.entries == [-1])
    }

    @Test("callbacks run on the actor one at a time, in the order each thread submitted them, each once")
    func orderAndExclusionAcrossThreads() async throws {
        let threads = 4
        let perThread = scaled(2_000, floor: 200)
        let ledger = Ledger()
        let context = ActorExecutionContext(ledger)
        let promises = (0..<threads * perThread).map { _ in Promise<Int>() }
        let steps = promises.map { promise in
            promise.future.then(isolatedTo: context) { ledger, value in
                ledger.enter()
                ledger.entries.append(value)
                ledger.total += 1
                ledger.leave()
                return value
            }
        }
        onThreads(threads) { thread in
            for index in 0..<perThread {
                let value = thread * perThread + index
                promises[value].fulfil(with: value)
            }
        }
        let values = try await Future.fulfillingWhen(steps).value
        #expect(values == Array(0..<threads * perThread))
        let entries = await ledger.entries
        #expect(entries.count == threads * perThread)
        #expect(Set(entries).count == threads * perThread)
        #expect(await ledger.total == threads * perThread)
        #expect(await ledger.overlaps == 0)
        for thread in 0..<threads {
            let own = entries.filter { $0 / perThread == thread }
            #expect(own == Array(thread * perThread..<(thread + 1) * perThread))
        }
    }

    @Test("the main actor's context takes @MainActor closures and keeps one order")
    @MainActor
    func mainActor() async throws {
        MainActorState.entries = []
        let promises = (0..<100).map { _ in Promise<Int>() }
        let steps = promises.map { promise in
            promise.future.then(isolatedTo: .mainActor) { value in
                MainActorState.entries.append(value)
                return value
            }
        }
        let fulfilledSeen = Promise<Int>()
        promises[99].future.whenFulfilled(isolatedTo: .mainActor) { value in fulfilledSeen.fulfil(with: value) }
        let resolvedSeen = Promise<String>()
        promises[0].future.whenResolved(isolatedTo: .mainActor) { outcome in
            resolvedSeen.fulfil(with: describe(outcome))
        }
        let followed = promises[1].future.then(isolatedTo: .mainActor) { value in Future.fulfilled(with: value + 1) }
        DispatchQueue.global().async {
            for (value, promise) in promises.enumerated() { promise.fulfil(with: value) }
        }
        #expect(try await Future.fulfillingWhen(steps).value == Array(0..<100))
        #expect(MainActorState.entries == Array(0..<100))
        #expect(try await fulfilledSeen.future.value == 99)
        #expect(try await resolvedSeen.future.value == "fulfilled(0)")
        #expect(try await followed.value == 2)
    }

    @Test("an executor that holds the jobs: the work waits, then runs in order, each step once")
    func delayingExecutor() async throws {
        let ledger = HeldLedger()
        let context = ActorExecutionContext(ledger)
        let promises = (0..<50).map { _ in Promise<Int>() }
        let steps = promises.map { promise in
            promise.future.then(isolatedTo: context) { ledger, value in
                ledger.entries.append(value)
                return value
            }
        }
        for (value, promise) in promises.enumerated() { promise.fulfil(with: value) }
        try await ledger.executor.jobArrived().value
        #expect(steps.allSatisfy { $0.peek() == nil })
        ledger.executor.runAll()
        #expect(steps.map { $0.peek()?.value } == Array(0..<50))
        // A later step starts a new task: the context went idle when the queue emptied.
        let late = Future.fulfilled(with: 50).then(isolatedTo: context) { ledger, value in
            ledger.entries.append(value)
            return ledger.entries.count
        }
        try await ledger.executor.jobArrived().value
        ledger.executor.runAll()
        #expect(late.peek()?.value == 51)
    }

    @Test("an executor that never runs the job: the step stays pending, and a timeout answers for it")
    func executorThatNeverRuns() async throws {
        let ledger = HeldLedger()
        let context = ActorExecutionContext(ledger)
        let clock = DeadlineClock.manual()
        let runs = Counter()
        let step = Future.fulfilled(with: 1).then(isolatedTo: context) { ledger, value in
            runs.increment()
            ledger.entries.append(value)
            return value
        }
        let bounded = step.timeout(after: .seconds(1), clock: clock)
        try await ledger.executor.jobArrived().value
        clock.advance(by: .seconds(1))
        #expect(bounded.peek()?.error is FutureTimeoutError)
        // A request does not resolve a step whose work waits for its context: it stays pending.
        #expect(step.peek() == nil)
        #expect(runs.value == 0)
        // Should the executor run the jobs after all, the step runs then, once. (Not `await
        // ledger.entries` here: that job would be held too.)
        ledger.executor.runAll()
        #expect(runs.value == 1)
        #expect(step.peek()?.value == 1)
    }
}
