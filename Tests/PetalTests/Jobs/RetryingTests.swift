import Petal
import Testing

@Suite("Jobs: retrying")
struct RetryingTests {
    @Test("a closure is retried until it succeeds, and runs exactly as often as needed")
    func retriesUntilSuccess() {
        let runs = Counter()
        let future = Future<Int>.retrying(attempts: 5) {
            runs.increment()
            return runs.value < 3 ? .rejected(with: TestError(runs.value)) : .fulfilled(with: runs.value)
        }
        #expect(describe(future.peek()) == "fulfilled(3)")
        #expect(runs.value == 3)
    }

    @Test("after the last attempt the future is rejected with the last error")
    func exhaustsAttempts() {
        let runs = Counter()
        let future = Future<Int>.retrying(attempts: 4) {
            runs.increment()
            return .rejected(with: TestError(runs.value))
        }
        #expect(describe(future.peek()) == "rejected(\(TestError(4)))")
        #expect(runs.value == 4)
    }

    @Test("a cancelled attempt is not retried")
    func cancellationNotRetried() {
        let runs = Counter()
        let future = Future<Int>.retrying(attempts: 4) {
            runs.increment()
            return .cancelled(withIndirectError: TestError(2))
        }
        #expect(describe(future.peek()) == "cancelled(\(TestError(2)))")
        #expect(runs.value == 1)
    }

    @Test("a job factory makes a fresh job for every attempt")
    func jobFactory() {
        let made = Counter()
        let future = Future.retrying(RetryPolicy(attempts: 3), with: 5) { () -> Job<Int, Int> in
            made.increment()
            let attempt = made.value
            return MapJob<Int, Int> { input in
                if attempt < 3 { throw TestError(attempt) }
                return input * 10
            }
        }
        #expect(describe(future.peek()) == "fulfilled(50)")
        #expect(made.value == 3)
    }

    @Test("a cancellation request stops retrying and asks the current attempt")
    func requestStopsRetrying() {
        let runs = Counter()
        let current = Recorder<ManualJob<Int, Int>>()
        let future = Future.retrying(RetryPolicy(attempts: 5), with: 1) { () -> Job<Int, Int> in
            runs.increment()
            let job = ManualJob<Int, Int>()
            current.record(job)
            return job
        }
        current.events[0].fail(with: TestError(1))
        #expect(runs.value == 2)
        future.requestCancellation()
        #expect(current.events[1].state == .cancelled)
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(runs.value == 2)
    }
}
