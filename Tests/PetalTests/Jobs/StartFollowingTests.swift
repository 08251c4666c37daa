import Dispatch
import Petal
import Testing

/// A promise whose future counts the requests that reach its producer.
private func askablePromise(_ asked: Counter, repeats: RepeatedResolutionPolicy = .report) -> Promise<Int> {
    let promise = Promise<Int>(onRepeatedResolution: repeats)
    promise.cancelWhenRequested { asked.increment() }
    return promise
}

@Suite("Jobs: starting work that returns a future")
struct StartFollowingTests {
    @Test("the started future follows the future the closure returns, fulfilled, rejected or cancelled alike")
    func follows() {
        let fulfilling = Promise<Int>()
        let started: Future<Int> = Future.startFollowing { fulfilling.future }
        #expect(started.peek() == nil)
        fulfilling.fulfil(with: 4)
        #expect(describe(started.peek()) == "fulfilled(4)")
        let rejected = Future<Int>.startFollowing { Future.rejected(with: TestError(2)) }
        #expect(describe(rejected.peek()) == "rejected(\(TestError(2)))")
        let cancelled = Future<Int>.startFollowing { .cancelled(withIndirectError: TestError(3)) }
        #expect(describe(cancelled.peek()) == "cancelled(\(TestError(3)))")
    }

    @Test("a closure that throws rejects the started future with its error")
    func throwing() {
        let started: Future<Int> = Future.startFollowing { () throws -> Future<Int> in throw TestError(5) }
        #expect(describe(started.peek()) == "rejected(\(TestError(5)))")
    }

    @Test("on a queue, the closure runs there and the started future follows what it returned")
    func onQueue() {
        let queue = DispatchQueue(label: "petal.tests.start-following")
        let ranOnQueue = Counter()
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 1)
        let started: Future<Int> = Future.startFollowing(on: queue) {
            if DispatchQueue.getSpecific(key: key) == 1 { ranOnQueue.increment() }
            return .fulfilled(with: 8)
        }
        #expect(describe(started.wait()) == "fulfilled(8)")
        #expect(ranOnQueue.value == 1)
    }

    @Test("a request on the started future cancels it at once and asks the returned future's producer")
    func requestReachesTheWork() {
        let asked = Counter()
        let promise = askablePromise(asked)
        let started: Future<Int> = Future.startFollowing { promise.future }
        started.requestCancellation()
        #expect(describe(started.peek()) == "cancelled(nil)")
        #expect(asked.value == 1)
        #expect(promise.future.peek()?.isCancelled == true)
    }

    @Test("a request before the closure runs cancels the started future at once, and the closure never runs")
    func requestBeforeTheHop() {
        let queue = DispatchQueue(label: "petal.tests.start-following.held")
        let ran = Counter()
        queue.suspend()
        let started: Future<Int> = Future.startFollowing(on: queue) {
            ran.increment()
            return .fulfilled(with: 1)
        }
        started.requestCancellation()
        #expect(describe(started.peek()) == "cancelled(nil)")
        queue.resume()
        queue.sync {}
        #expect(ran.value == 0)
    }

    @Test("a timeout over the started future that gives up reaches the work, through the hop")
    func timeoutGivesUpThroughTheHop() {
        let asked = Counter()
        let promise = askablePromise(asked)
        let queue = DispatchQueue(label: "petal.tests.start-following.timeout")
        queue.suspend()
        let started: Future<Int> = Future.startFollowing(on: queue) { promise.future }
        // The timeout counts on the started future before the closure has run.
        let timed = started.timeout(after: .zero)
        #expect(timed.peek()?.isRejected == true)
        #expect(describe(started.peek()) == "cancelled(nil)")
        queue.resume()
        queue.sync {}
        // The closure never ran: nothing was asked, and the promise is the caller's to resolve.
        #expect(asked.value == 0)
        promise.fulfil(with: 1)
    }

    @Test("a timeout that gives up on a started future asks the producer of the future it follows")
    func timeoutGivesUpOnTheWork() {
        let asked = Counter()
        let promise = askablePromise(asked)
        let started: Future<Int> = Future.startFollowing { promise.future }
        let timed = started.timeout(after: .zero)
        #expect(timed.peek()?.isRejected == true)
        #expect(describe(started.peek()) == "cancelled(nil)")
        #expect(asked.value == 1)
        #expect(promise.future.peek()?.isCancelled == true)
    }

    @Test("a request racing the resolution, 2 threads × 5 000: the work is asked at most once, only if the request won")
    func racingRequests() {
        let count = scaled(5_000)
        // The fulfilment is a repeat when the request won: expected here, so not reported.
        let asked = (0..<count).map { _ in Counter() }
        let promises = asked.map { askablePromise($0, repeats: .ignore) }
        let started: [Future<Int>] = promises.map { promise in Future.startFollowing { promise.future } }
        onThreads(2) { thread in
            for index in 0..<count {
                if thread == 0 { promises[index].fulfil(with: index) } else { started[index].requestCancellation() }
            }
        }
        for index in 0..<count {
            let outcome = started[index].wait()
            // Asked at most once, and only when the request won (the stop may still find the
            // promise fulfilled by then: it runs all the same, as a request's answer does).
            #expect(asked[index].value <= 1)
            if outcome.isFulfilled { #expect(outcome.value == index && asked[index].value == 0) }
            if asked[index].value == 1 { #expect(outcome.isCancelled) }
        }
    }
}
