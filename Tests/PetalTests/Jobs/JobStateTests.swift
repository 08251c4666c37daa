import Petal
import Testing

@Suite("Jobs: states and transitions", .serialized)
struct JobStateTests {
    @Test("a new job is pending and its future pending")
    func newJobIsPending() {
        let job = ManualJob<Int, Int>()
        #expect(job.state == .pending)
        #expect(job.future.peek() == nil)
        // Held to here: released after its last use, the job would be abandoned mid-check.
        withExtendedLifetime(job) {}
    }

    @Test("begin moves a pending job to executing, once")
    func beginOnce() {
        let job = ManualJob<Int, Int>()
        #expect(job.begin())
        #expect(job.state == .executing)
        let reports = collectingJobStartReports { #expect(!job.begin()) }
        #expect(reports.count == 1)
        #expect(reports.first?.state == .executing)
        #expect(job.state == .executing)
    }

    @Test("complete fulfils the future and is final")
    func completeFulfils() {
        let job = ManualJob<Int, Int>()
        job.start(with: 1)
        #expect(job.complete(with: 5))
        #expect(job.state == .completed)
        #expect(describe(job.future.peek()) == "fulfilled(5)")
        #expect(!job.fail(with: TestError(1)))
        #expect(!job.cancel())
        #expect(job.state == .completed)
        #expect(describe(job.future.peek()) == "fulfilled(5)")
    }

    @Test("fail rejects the future and is final")
    func failRejects() {
        let job = ManualJob<Int, Int>()
        job.start(with: 1)
        #expect(job.fail(with: TestError(3)))
        #expect(job.state == .failed)
        #expect(describe(job.future.peek()) == "rejected(\(TestError(3)))")
        #expect(!job.complete(with: 1))
        #expect(job.state == .failed)
    }

    @Test("cancel from every unfinished state cancels with the indirect error and runs the hook once")
    func cancelFromEveryState() {
        for setUp in 0..<3 {
            let job = ManualJob<Int, Int>()
            let neverRuns = NeverRuns()
            if setUp == 1 { _ = Future.start(running: job, with: 1, on: neverRuns) }
            if setUp == 2 { job.start(with: 1) }
            #expect(job.state == [JobState.pending, .enqueued, .executing][setUp])
            #expect(job.cancel(withIndirectError: TestError(4)))
            #expect(job.state == .cancelled)
            #expect(describe(job.future.peek()) == "cancelled(\(TestError(4)))")
            #expect(job.hookSaw.events == [.cancelled])
            #expect(!job.cancel())
            #expect(!job.complete(with: 1))
            #expect(job.hookSaw.events == [.cancelled])
        }
    }

    @Test("a cancelled job never starts, and starting it is not reported")
    func cancelledJobNeverStarts() {
        let job = ManualJob<Int, Int>()
        job.cancel()
        let reports = collectingJobStartReports {
            job.start(with: 1)
            _ = Future.start(running: job, with: 2)
        }
        #expect(reports.isEmpty)
        #expect(job.inputs.events.isEmpty)
        #expect(job.state == .cancelled)
    }

    @Test("attemptCancel cancels an unfinished job and leaves a finished one alone")
    func attemptCancel() {
        let running = ManualJob<Int, Int>()
        running.start(with: 1)
        running.attemptCancel()
        #expect(running.state == .cancelled)
        let done = ManualJob<Int, Int>()
        done.start(with: 1)
        done.complete(with: 2)
        done.attemptCancel()
        #expect(done.state == .completed)
    }

    @Test("a job dropped before it finishes cancels its future as abandoned")
    func droppedJobAbandonsFuture() {
        var job: ManualJob<Int, Int>? = ManualJob()
        let future = job!.future
        job = nil
        guard case .cancelled(let error)? = future.peek() else {
            Issue.record("expected a cancellation")
            return
        }
        #expect(error is AbandonedPromiseError)
    }

    @Test("a job that does not override start fails with UnimplementedJobError")
    func unimplementedStart() {
        let job = Job<Int, Int>()
        job.start(with: 1)
        #expect(job.state == .failed)
        #expect(job.future.peek()?.error is UnimplementedJobError)
    }

    @Test(
        "complete, fail and cancel racing on many threads: exactly one wins, and the future agrees",
        arguments: [2, 4, 8])
    func finishingRace(threads: Int) {
        for _ in 0..<scaled(300) {
            let job = ManualJob<Int, Int>()
            job.start(with: 0)
            let wins = Counter()
            onThreads(threads) { index in
                let won: Bool
                switch index % 3 {
                case 0: won = job.complete(with: index)
                case 1: won = job.fail(with: TestError(index))
                default: won = job.cancel(withIndirectError: TestError(index))
                }
                if won { wins.increment() }
            }
            #expect(wins.value == 1)
            switch (job.state, job.future.peek()) {
            case (.completed, .fulfilled?), (.failed, .rejected?), (.cancelled, .cancelled?): break
            default: Issue.record("state \(job.state) disagrees with \(describe(job.future.peek()))")
            }
            #expect(job.hookSaw.events.count == (job.state == .cancelled ? 1 : 0))
        }
    }

    @Test("begin racing on many threads: exactly one starts, the rest are reported")
    func beginRace() {
        let reports = collectingJobStartReports {
            for _ in 0..<scaled(200) {
                let job = ManualJob<Int, Int>()
                let started = Counter()
                onThreads(4) { _ in if job.begin() { started.increment() } }
                #expect(started.value == 1)
            }
        }
        #expect(reports.count == scaled(200) * 3)
    }

    @Test("begin racing cancel: the job either runs or is cancelled, never both")
    func beginCancelRace() {
        for _ in 0..<scaled(300) {
            let job = ManualJob<Int, Int>()
            let began = Counter()
            let cancelled = Counter()
            onThreads(2) { index in
                if index == 0 {
                    if job.begin() { began.increment() }
                } else if job.cancel() {
                    cancelled.increment()
                }
            }
            // Cancelling an executing job is allowed; cancelling first forbids the start.
            #expect(cancelled.value == 1)
            #expect(job.state == .cancelled)
            #expect(began.value <= 1)
        }
    }
}

/// A context that keeps what it is given and never runs it, to hold a job in the enqueued
/// state. (Letting go of the work would be a drop, which cancels the job.)
struct NeverRuns: ExecutionContext {
    let held = Recorder<@Sendable () -> Void>()

    func execute(_ work: @escaping @Sendable () -> Void) { held.record(work) }
}
