import Petal
import Testing

@Suite("Jobs: cancellation requests travel upstream")
struct UpstreamCancellationTests {
    @Test("a request on a job's future calls the job's attemptCancel")
    func requestReachesJob() {
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        future.requestCancellation()
        #expect(job.state == .cancelled)
        #expect(future.isCancellationRequested)
        #expect(describe(future.peek()) == "cancelled(nil)")
    }

    @Test("a request reaches the handler the promise's owner registered, once")
    func requestReachesPromiseHandler() {
        let promise = Promise<Int>()
        let asked = Counter()
        promise.whenCancellationRequested {
            asked.increment()
            promise.cancel()
        }
        promise.future.requestCancellation()
        promise.future.requestCancellation()
        #expect(asked.value == 1)
        #expect(describe(promise.future.peek()) == "cancelled(nil)")
    }

    @Test("a handler registered after a request runs at once; one registered on a resolved future never runs")
    func lateHandlers() {
        let promise = Promise<Int>()
        promise.whenCancellationRequested {}
        promise.future.requestCancellation()
        let asked = Counter()
        promise.whenCancellationRequested { asked.increment() }
        #expect(asked.value == 1)
        let resolved = Promise<Int>()
        resolved.fulfil(with: 1)
        resolved.whenCancellationRequested { asked.increment() }
        resolved.future.requestCancellation()
        #expect(asked.value == 1)
    }

    @Test("a request without any handler does nothing to a promise's future")
    func requestWithoutHandler() {
        let promise = Promise<Int>()
        promise.future.requestCancellation()
        #expect(promise.future.peek() == nil)
        promise.fulfil(with: 2)
        #expect(describe(promise.future.peek()) == "fulfilled(2)")
    }

    @Test("a request on a chained future cancels it at once; its closure never runs")
    func chainedFutureCancelsItself() {
        let promise = Promise<Int>()
        let ran = Counter()
        let step = promise.future.then { value -> Int in
            ran.increment()
            return value
        }
        let after = step.then { $0 + 1 }
        step.requestCancellation()
        #expect(describe(step.peek()) == "cancelled(nil)")
        #expect(describe(after.peek()) == "cancelled(nil)")
        promise.fulfil(with: 1)
        #expect(ran.value == 0)
    }

    @Test("a request at the end of a chain travels up to the job at its head")
    func requestTravelsUpChain() {
        let job = ManualJob<Int, Int>()
        let end = Future.start(running: job, with: 1).then { $0 + 1 }.recover { _ in 0 }.then { "\($0)" }
        end.requestCancellation()
        #expect(job.state == .cancelled)
        #expect(describe(end.peek()) == "cancelled(nil)")
    }

    @Test("a request travels through a chained job to the producer above it")
    func requestTravelsThroughJobs() {
        let promise = Promise<Int>()
        let asked = Counter()
        promise.whenCancellationRequested { asked.increment() }
        let job = ManualJob<Int, Int>()
        promise.future.then(job).requestCancellation()
        #expect(job.state == .cancelled)
        #expect(asked.value == 1)
    }

    @Test("a shared upstream is asked only once every one of its dependents has asked")
    func severalConsumers() {
        let job = ManualJob<Int, Int>()
        let shared = Future.start(running: job, with: 1)
        let first = shared.then { $0 + 1 }
        let second = shared.then { $0 + 2 }
        let third = shared.then(ManualJob<Int, Int>())
        first.requestCancellation()
        #expect(describe(first.peek()) == "cancelled(nil)")
        #expect(job.state == .executing)
        second.requestCancellation()
        #expect(job.state == .executing)
        #expect(!shared.isCancellationRequested)
        third.requestCancellation()
        #expect(job.state == .cancelled)
        #expect(shared.isCancellationRequested)
    }

    @Test("the remaining consumer of a shared upstream still gets its value")
    func remainingConsumerServed() {
        let job = ManualJob<Int, Int>()
        let shared = Future.start(running: job, with: 1)
        let leaving = shared.then { $0 + 1 }
        let staying = shared.then { $0 + 2 }
        leaving.requestCancellation()
        job.complete(with: 10)
        #expect(describe(leaving.peek()) == "cancelled(nil)")
        #expect(describe(staying.peek()) == "fulfilled(12)")
    }

    @Test("a direct request on a shared future asks its producer whatever its dependents do")
    func directRequestIsUnconditional() {
        let job = ManualJob<Int, Int>()
        let shared = Future.start(running: job, with: 1)
        let dependent = shared.then { $0 }
        shared.requestCancellation()
        #expect(job.state == .cancelled)
        #expect(describe(dependent.peek()) == "cancelled(nil)")
    }

    @Test("a request on a group's future asks every job")
    func groupRequest() {
        let jobs = [ManualJob<Int, Int>(), ManualJob<Int, Int>()]
        Future.start(running: jobs, with: 1).requestCancellation()
        #expect(jobs.allSatisfy { $0.state == .cancelled })
    }

    @Test("votes racing from many threads ask the shared upstream exactly once")
    func votesRace() {
        for _ in 0..<scaled(200) {
            let asked = Counter()
            let promise = Promise<Int>()
            promise.whenCancellationRequested { asked.increment() }
            let dependents = (0..<4).map { offset in promise.future.then { $0 + offset } }
            onThreads(4) { index in dependents[index].requestCancellation() }
            #expect(asked.value == 1)
            promise.cancel()
        }
    }

    @Test("requests racing the resolution never run a closure downstream of a cancellation")
    func requestRacesResolution() {
        for _ in 0..<scaled(300) {
            let promise = Promise<Int>()
            promise.whenCancellationRequested { promise.cancel() }
            let ran = Counter()
            let step = promise.future.then { value -> Int in
                ran.increment()
                return value
            }
            onThreads(2) { index in
                if index == 0 { promise.fulfil(with: 1) } else { step.requestCancellation() }
            }
            switch step.peek() {
            case .fulfilled?: #expect(ran.value == 1)
            case .cancelled?: break
            default: Issue.record("unexpected \(describe(step.peek()))")
            }
        }
    }

    @Test("cancellation actions are released once the future resolves")
    func actionsReleased() {
        weak var captured: Tracked?
        let promise = Promise<Int>()
        do {
            let object = Tracked()
            captured = object
            promise.whenCancellationRequested { _ = object.id }
        }
        #expect(captured != nil)
        promise.fulfil(with: 1)
        #expect(captured == nil)
    }
}
