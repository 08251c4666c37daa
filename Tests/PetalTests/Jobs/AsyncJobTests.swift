import Petal
import Testing

@Suite("Jobs: Swift concurrency both ways")
struct AsyncJobTests {
    @Test("an async job completes with what its work returns")
    func asyncJobCompletes() async throws {
        let job = AsyncJob<Int, Int> { $0 * 2 }
        let value = try await Future.start(running: job, with: 21).value
        #expect(value == 42)
        #expect(job.state == .completed)
    }

    @Test("an async job fails with what its work throws")
    func asyncJobFails() async {
        let future = Future.start(running: AsyncJob<Int, Int> { _ in throw TestError(3) }, with: 1)
        #expect(describe(await future.outcome) == "rejected(\(TestError(3)))")
    }

    @Test("cancelling an async job cancels its task, which sees Task.isCancelled")
    func asyncJobSeesCancellation() async {
        let entered = Promise<Void>()
        let sawCancellation = Promise<Bool>()
        let job = AsyncJob<Void, Int> { _ in
            entered.fulfil(with: ())
            while !Task.isCancelled { await Task.yield() }
            sawCancellation.fulfil(with: true)
            return 0
        }
        _ = Future.start(running: job)
        _ = await entered.future.outcome
        let pool = CancellationPool()
        pool.add(job)
        pool.drain()
        #expect(job.state == .cancelled)
        #expect(describe(await sawCancellation.future.outcome) == "fulfilled(true)")
    }

    @Test("the async closure start form runs the work and a request cancels its task")
    func asyncClosureForm() async {
        #expect(describe(await Future.start(executingAsync: { 5 }).outcome) == "fulfilled(5)")
        let observed = Promise<Bool>()
        let future = Future<Int>.start(executingAsync: {
            while !Task.isCancelled { await Task.yield() }
            observed.fulfil(with: true)
            throw CancellationError()
        })
        future.requestCancellation()
        #expect(describe(await future.outcome) == "cancelled(nil)")
        #expect(describe(await observed.future.outcome) == "fulfilled(true)")
    }

    @Test("cancelling a task awaiting with cancellingUpstream asks the job")
    func awaitingTaskCancelsUpstream() async {
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        let waiter = Task { try await future.then { $0 }.value(cancellingUpstream: true) }
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: CancellationError.self) { try result.get() }
        _ = await future.outcome
        #expect(job.state == .cancelled)
    }

    @Test("without cancellingUpstream, cancelling the awaiting task leaves the job running")
    func awaitingTaskLeavesUpstream() async {
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        let waiter = Task { try await future.value(cancellingUpstream: false) }
        waiter.cancel()
        _ = await waiter.result
        #expect(job.state == .executing)
        job.complete(with: 1)
    }

    @Test("two tasks awaiting with cancellingUpstream: the job is asked only when both are cancelled")
    func twoAwaitingTasks() async {
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        let first = Task { try await future.value(cancellingUpstream: true) }
        let second = Task { try await future.value(cancellingUpstream: true) }
        // Both must be counted before either is cancelled: wait until each has registered.
        while future.dependentCountForTests < 2 { await Task.yield() }
        first.cancel()
        _ = await first.result
        #expect(job.state == .executing)
        second.cancel()
        _ = await second.result
        #expect(job.state == .cancelled)
    }
}
