import Petal
import Testing

/// The circuit breaker under threads: every call is run or refused, exactly once, and the trial
/// calls are never more than the policy allows.
@Suite("Circuit breaker: threads")
struct CircuitBreakerRaceTests {
    @Test("8 threads of calls that fail in turns: every call runs or is refused, once, and each run resolves")
    func runsPlusRefusalsAreCalls() {
        let threads = 8
        let perThread = scaled(4_000)
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(
            failureRateThreshold: 0.5, window: .calls(50), minimumCalls: 10, openDuration: .milliseconds(5),
            trialCalls: 4)
        let recorder = breakerStateChanges  // installs the recording handler first
        let name = "threads \(UInt64.random(in: 0...UInt64.max))"
        let breaker = CircuitBreaker(name: name, policy: policy, clock: clock)
        let runs = Counter()
        let refusals = Counter()
        let others = Counter()
        let resolved = Counter()
        onThreads(threads) { thread in
            for index in 0..<perThread {
                // Stretches of failures and of successes, so that the breaker opens and closes.
                let fails = (index / 200) % 2 == 0
                let call = breaker.run {
                    runs.increment()
                    return fails ? Future<Int>.rejected(with: BackendDown()) : .fulfilled(with: index)
                }
                switch call.peek() {
                case .rejected(let error) where error is CircuitBreakerOpenError: refusals.increment()
                case .rejected, .fulfilled: resolved.increment()
                default: others.increment()
                }
                // One thread moves the time, so that the open breaker half-opens now and then.
                if thread == 0 && index % 50 == 0 { clock.advance(by: .milliseconds(5)) }
            }
        }
        #expect(runs.value + refusals.value == threads * perThread)
        #expect(resolved.value == runs.value)
        #expect(others.value == 0)
        #expect(refusals.value > 0)
        #expect(runs.value > 0)
        // Opened by the first stretch of failures, and half-opened by thread 0's next call after
        // it moved the time past the open duration. Not in order: each change is reported by
        // the thread that made it, after its compare-and-swap, and threads report concurrently.
        let changes = recorder.events.filter { $0.details["breaker"] == name }.map { $0.details["to"] ?? "?" }
        #expect(changes.contains("open"))
        #expect(changes.contains("half-open"))
    }

    @Test("8 threads on real time, the breaker opening for a millisecond: every call runs or is refused, once")
    func realTime() {
        let threads = 8
        let perThread = scaled(4_000)
        let breaker = CircuitBreaker(
            name: "real time",
            policy: CircuitBreakerPolicy(
                window: .time(.milliseconds(20), buckets: 4), minimumCalls: 5, openDuration: .milliseconds(1),
                trialCalls: 2))
        let runs = Counter()
        let refusals = Counter()
        onThreads(threads) { thread in
            for index in 0..<perThread {
                let call = breaker.run {
                    runs.increment()
                    return (index + thread) % 3 != 0 ? Future<Int>.rejected(with: BackendDown()) : .fulfilled(with: 1)
                }
                if refusal(call.peek()) != nil { refusals.increment() }
            }
        }
        #expect(runs.value + refusals.value == threads * perThread)
        #expect(runs.value > 0)
    }

    @Test(
        "on real time, 2 threads failing 3 calls in 10 keep the breaker closed however its successes are sampled, and 7 in 10 open it"
    )
    func sampledSuccessesWeighAsTheCallsTheyStandFor() {
        // A success counted as one call where it stands for several would read 3 failures in 10
        // as more than half.
        let breaker = CircuitBreaker.sampling(named: "sampled")
        let perThread = scaled(100_000)
        onThreads(2) { _ in
            for index in 0..<perThread {
                _ = breaker.run {
                    index % 10 < 3 ? Future<Int>.rejected(with: BackendDown()) : .fulfilled(with: index)
                }
            }
        }
        #expect(breaker.state == .closed)
        // 7 in 10: the failure share passes half within a window at most. The bound only ends
        // the loop if it never opens.
        var calls = 0
        while breaker.state == .closed && calls < 50_000_000 {
            let call = calls
            _ = breaker.run { call % 10 < 7 ? Future<Int>.rejected(with: BackendDown()) : .fulfilled(with: call) }
            calls += 1
        }
        #expect(breaker.state == .open)
    }

    @Test("8 threads racing into a half-open breaker: exactly trialCalls of them run")
    func trialsAreExact() {
        let clock = DeadlineClock.manual()
        let breaker = halfOpenBreaker(named: "trial race", trials: 5, clock: clock)
        let runs = Counter()
        let refusals = Counter()
        let holder = Promise<Int>()
        let perThread = scaled(1_000)
        onThreads(8) { _ in
            for _ in 0..<perThread {
                let call = breaker.run {
                    runs.increment()
                    return holder.future
                }
                if refusal(call.peek()) != nil { refusals.increment() }
            }
        }
        #expect(runs.value == 5)
        #expect(refusals.value == 8 * perThread - 5)
        #expect(breaker.state == .halfOpen)
        holder.fulfil(with: 1)
        #expect(breaker.state == .closed)
    }

    @Test("8 threads of pending calls resolved on other threads: closed-path counting loses no call")
    func concurrentResolutions() {
        let breaker = CircuitBreaker(
            name: "resolutions",
            policy: CircuitBreakerPolicy(failureRateThreshold: 1, window: .calls(64), minimumCalls: 64),
            clock: .manual())
        let perThread = scaled(2_000)
        let promises = (0..<8).map { _ in (0..<perThread).map { _ in Promise<Int>() } }
        let runs = Counter()
        onThreads(8) { thread in
            for promise in promises[thread] {
                _ = breaker.run {
                    runs.increment()
                    return promise.future
                }
            }
        }
        #expect(runs.value == 8 * perThread)
        // Resolved by other threads than those that ran them: every one a success, so the
        // breaker, which opens only when all of the last 64 failed, stays closed.
        onThreads(8) { thread in
            for promise in promises[(thread + 1) % 8] { promise.fulfil(with: 1) }
        }
        #expect(breaker.state == .closed)
        // 64 failures in a row then open it: the successes before them left the window whole.
        breaker.calls(Array(repeating: .failure, count: 63))
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }
}
