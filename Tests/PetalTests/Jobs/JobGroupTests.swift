import Dispatch
import Petal
import Testing

/// Job groups (`Future.start(running: [jobs])` and `then([jobs])`): what the group's observers
/// see when one job fails, and what a job dropped unfinished does to its group.
@Suite("Job groups")
struct JobGroupTests {
    @Test("when one job fails, the group's observers already find every other job cancelled")
    func observersSeeOthersCancelled() {
        let jobs = (0..<4).map { _ in ManualJob<Int, Int>() }
        let group = Future.start(running: jobs, with: 1)
        let seen = Recorder<[JobState]>()
        group.whenResolved { _ in seen.record(jobs.map(\.state)) }
        jobs[2].fail(with: TestError(3))
        #expect(seen.events == [[.cancelled, .cancelled, .failed, .cancelled]])
        #expect(describe(group.peek()) == "cancelled(\(TestError(3)))")
    }

    @Test("a group chained onto a rejected future cancels every job with the error, not only the first")
    func everyJobGetsTheRejection() {
        let jobs = (0..<4).map { _ in ManualJob<Int, Int>() }
        let source = Promise<Int>()
        let group = source.future.then(jobs)
        source.reject(with: TestError(7))
        for job in jobs {
            #expect(job.state == .cancelled)
            #expect(describe(job.future.peek()) == "cancelled(\(TestError(7)))")
        }
        #expect(describe(group.peek()) == "cancelled(\(TestError(7)))")
    }

    @Test("a group chained onto a cancelled future cancels every job with its indirect error")
    func everyJobGetsTheIndirectError() {
        let jobs = (0..<3).map { _ in ManualJob<Int, Int>() }
        let source = Promise<Int>()
        let group = source.future.then(jobs)
        source.cancel(withIndirectError: TestError(8))
        #expect(jobs.map { describe($0.future.peek()) } == Array(repeating: "cancelled(\(TestError(8)))", count: 3))
        #expect(describe(group.peek()) == "cancelled(\(TestError(8)))")
    }

    @Test("the same for a group chained with then, and for a cancelled job")
    func observersSeeOthersCancelledAfterThen() {
        let jobs = (0..<3).map { _ in ManualJob<Int, Int>() }
        let source = Promise<Int>()
        let group = source.future.then(jobs)
        let seen = Recorder<[JobState]>()
        group.whenResolved { _ in seen.record(jobs.map(\.state)) }
        source.fulfil(with: 5)
        #expect(jobs.allSatisfy { $0.state == .executing })
        jobs[0].cancel(withIndirectError: TestError(4))
        #expect(seen.events == [[.cancelled, .cancelled, .cancelled]])
        #expect(describe(group.peek()) == "cancelled(\(TestError(4)))")
        #expect(describe(jobs[1].future.peek()) == "cancelled(nil)")
    }

    @Test("observers on a queue also find the other jobs cancelled, in every round")
    func observersOnAQueue() {
        let queue = DispatchQueue(label: "group observers")
        for round in 0..<scaled(200) {
            let jobs = (0..<3).map { _ in ManualJob<Int, Int>() }
            let group = Future.start(running: jobs, with: round)
            let seen = Recorder<[JobState]>()
            let observed = DispatchSemaphore(value: 0)
            group.whenResolved(on: queue) { _ in
                seen.record(jobs.map(\.state))
                observed.signal()
            }
            let failing = DispatchGroupBox()
            failing.run { jobs[round % 3].fail(with: TestError(round)) }
            observed.wait()
            failing.wait()
            var expected: [JobState] = [.cancelled, .cancelled, .cancelled]
            expected[round % 3] = .failed
            #expect(seen.events == [expected])
        }
    }

    @Test("a job dropped unfinished is abandoned: its group resolves, the other jobs are cancelled")
    func droppedJobAbandonsTheGroup() {
        let kept = ManualJob<Int, Int>()
        weak var dropped: ManualJob<Int, Int>?
        let group: Future<[Int]> = {
            let job = ManualJob<Int, Int>()
            dropped = job
            return Future.start(running: [kept, job], with: 1)
        }()
        // Nothing but the group's own bookkeeping referred to the dropped job.
        #expect(dropped == nil)
        #expect(group.peek()?.isCancelled == true)
        #expect(group.peek()?.error is AbandonedPromiseError)
        #expect(kept.state == .cancelled)
    }

    @Test("a group of jobs all dropped unfinished, chained with then, resolves once its source does")
    func droppedJobsAfterThen() {
        let source = Promise<Int>()
        weak var first: ManualJob<Int, Int>?
        let group: Future<[Int]> = {
            let jobs = [ManualJob<Int, Int>(), ManualJob<Int, Int>()]
            first = jobs[0]
            return source.future.then(jobs)
        }()
        // The source keeps the jobs until it can start them...
        #expect(first != nil)
        #expect(group.peek() == nil)
        // ...and then nothing does: they are abandoned, and the group with them.
        source.fulfil(with: 2)
        #expect(first == nil)
        #expect(group.peek()?.error is AbandonedPromiseError)
    }
}
