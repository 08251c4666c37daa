import Dispatch
import Petal
import Testing

@Suite("Jobs: starting and chaining", .serialized)
struct JobStartTests {
    @Test("start(running:with:) starts the job with the input and returns its future")
    func startWithInput() {
        let job = MapJob<Int, String> { "got \($0)" }
        let future = Future.start(running: job, with: 4)
        #expect(describe(future.peek()) == "fulfilled(got 4)")
        #expect(job.state == .completed)
    }

    @Test("the Void-input form starts the job")
    func startVoid() {
        let future = Future.start(running: MapJob<Void, Int> { 9 })
        #expect(describe(future.peek()) == "fulfilled(9)")
    }

    @Test("start on a queue runs the job there, enqueued until it does")
    func startOnQueue() {
        let queue = DispatchQueue(label: "petal.tests.jobs")
        let job = ManualJob<Int, Int>()
        queue.suspend()
        let future = Future.start(running: job, with: 3, on: queue)
        #expect(job.state == .enqueued)
        queue.resume()
        queue.sync {}
        #expect(job.state == .executing)
        #expect(job.inputs.events == [3])
        job.complete(with: 1)
        #expect(describe(future.peek()) == "fulfilled(1)")
    }

    @Test("a second start is reported and ignored, never a crash")
    func secondStartReported() {
        // A job type of its own: JobStateTests, which may run meanwhile, repeats ManualJob<Int, Int>.
        let job = ManualJob<Int, String>()
        let reports = collectingJobStartReports(of: ManualJob<Int, String>.self) {
            _ = Future.start(running: job, with: 1)
            _ = Future.start(running: job, with: 2)
            job.start(with: 3)
        }
        #expect(job.inputs.events == [1])
        #expect(reports.map(\.state) == [.executing, .executing])
        #expect(reports.first?.description.contains("ManualJob") == true)
    }

    @Test("the closure form fulfils with the result or rejects with what it throws")
    func startClosure() {
        #expect(describe(Future.start { 5 }.peek()) == "fulfilled(5)")
        #expect(describe(Future<Int>.start { throw TestError(6) }.peek()) == "rejected(\(TestError(6)))")
        let queue = DispatchQueue(label: "petal.tests.jobs.closure")
        let later = Future.start(on: queue) { 7 }
        queue.sync {}
        #expect(describe(later.peek()) == "fulfilled(7)")
    }

    @Test("a group of jobs gets one input and fulfils with the outputs in order")
    func groupFulfils() {
        let jobs = (0..<4).map { offset in MapJob<Int, Int> { $0 + offset } }
        let future = Future.start(running: jobs, with: 10)
        #expect(describe(future.peek()) == "fulfilled([10, 11, 12, 13])")
        #expect(describe(Future.start(running: [MapJob<Int, Int>](), with: 1).peek()) == "fulfilled([])")
    }

    @Test("the first failure in a group cancels the group with its error and asks the other jobs to cancel")
    func groupFirstFailureCancelsRest() {
        let jobs = (0..<3).map { _ in ManualJob<Int, Int>() }
        let future = Future.start(running: jobs, with: 1)
        jobs[1].fail(with: TestError(8))
        #expect(describe(future.peek()) == "cancelled(\(TestError(8)))")
        #expect(jobs[0].state == .cancelled)
        #expect(jobs[2].state == .cancelled)
        // Asked, not failed: a request carries no error; the group's future has the cause.
        #expect(describe(jobs[2].future.peek()) == "cancelled(nil)")
    }

    @Test(
        "then with a job starts it with the value; a failed receiver cancels it unstarted",
        arguments: Receiver.allCases)
    func thenJob(receiver: Receiver) {
        let job = MapJob<Int, String> { "j\($0)" }
        let result = chained(onto: receiver, .resolvedAfter) { $0.then(job) }
        #expect(result == (receiver.passedDown ?? "fulfilled(j7)"))
        #expect(job.state == (receiver == .fulfilled ? .completed : .cancelled))
    }

    @Test("then with jobs starts them all; a failed receiver cancels them all", arguments: Receiver.allCases)
    func thenJobs(receiver: Receiver) {
        let jobs = [MapJob<Int, Int> { $0 }, MapJob<Int, Int> { $0 * 2 }]
        let result = chained(onto: receiver, .resolvedBefore) { $0.then(jobs) }
        #expect(result == (receiver.passedDown ?? "fulfilled([7, 14])"))
        for job in jobs { #expect(job.state == (receiver == .fulfilled ? .completed : .cancelled)) }
    }

    @Test(
        "additionally with a job pairs the value with its output, and is rejected if the job fails",
        arguments: Receiver.allCases)
    func additionallyJob(receiver: Receiver) {
        let result = chained(onto: receiver, .resolvedAfter) { future in
            future.additionally(MapJob<Int, Int> { $0 + 1 }).then { "\($0.0),\($0.1)" }
        }
        #expect(result == (receiver.passedDown ?? "fulfilled(7,8)"))
        let failing = chained(onto: .fulfilled, .resolvedAfter) { future in
            future.additionally(MapJob<Int, Int> { _ in throw TestError(5) })
        }
        #expect(failing == "rejected(\(TestError(5)))")
    }

    @Test("always with a job runs it whatever the outcome and passes failures down", arguments: Receiver.allCases)
    func alwaysJob(receiver: Receiver) {
        let ran = Counter()
        let job = MapJob<Void, Void> { ran.increment() }
        let result = chained(onto: receiver, .resolvedAfter) { $0.always(job) }
        #expect(ran.value == 1)
        #expect(result == (receiver.passedDown ?? "fulfilled(7)"))
        let failing = chained(onto: .fulfilled, .resolvedBefore) { future in
            future.always(MapJob<Void, Void> { throw TestError(3) })
        }
        #expect(failing == "rejected(\(TestError(3)))")
    }

    @Test("chaining methods add their jobs to the pool, and draining cancels the unstarted ones")
    func chainingAddsToPool() {
        let pool = CancellationPool()
        let promise = Promise<Int>()
        let first = ManualJob<Int, Int>()
        let second = ManualJob<Int, Int>()
        let chain = promise.future.then(first, pool: pool).then(second, pool: pool)
        pool.drain()
        #expect(first.state == .cancelled)
        #expect(second.state == .cancelled)
        #expect(describe(chain.peek()) == "cancelled(nil)")
        promise.fulfil(with: 1)
        #expect(first.inputs.events.isEmpty)
    }
}
