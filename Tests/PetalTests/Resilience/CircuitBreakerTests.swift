import Petal
import Testing

/// The circuit breaker's states: when it opens, what it refuses, and how its trial calls decide.
@Suite("Circuit breaker: states")
struct CircuitBreakerTests {
    @Test("stays closed before minimumCalls, whatever the failures, and opens at the minimum")
    func minimumCalls() {
        let breaker = CircuitBreaker(name: "minimum", policy: breakerPolicy(minimumCalls: 5), clock: .manual())
        breaker.calls([.failure, .failure, .failure, .failure])
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("opens when the failure rate reaches the threshold, not below it")
    func threshold() {
        let breaker = CircuitBreaker(name: "threshold", policy: breakerPolicy(minimumCalls: 4), clock: .manual())
        breaker.calls([.success, .success, .success, .failure])  // 1 of 4
        #expect(breaker.state == .closed)
        breaker.call(.failure)  // 2 of 5
        #expect(breaker.state == .closed)
        breaker.call(.failure)  // 3 of 6: the threshold
        #expect(breaker.state == .open)
    }

    @Test("a success never opens it, even past the minimum with the rate above the threshold")
    func successNeverOpens() {
        let breaker = CircuitBreaker(name: "success", policy: breakerPolicy(minimumCalls: 3), clock: .manual())
        breaker.calls([.failure, .failure])
        breaker.call(.success)  // 2 of 3 failed, and the minimum reached, by a success
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("while open, refuses at once without running the closure, saying when it tries again")
    func refusesWhileOpen() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "refusing", policy: breakerPolicy(minimumCalls: 1), clock: clock)
        let opened = clock.now
        breaker.call(.failure)
        clock.advance(by: .seconds(3))
        let runs = Counter()
        let refused = refusal(breaker.call(.success, runs: runs))
        #expect(runs.value == 0)
        #expect(refused?.breaker == "refusing")
        #expect(refused?.state == .open)
        #expect(refused?.retryAt == opened + .seconds(10))
        let described = refused.map { "\($0)" }
        #expect(described == "circuit breaker refusing is open: it refuses calls until its open duration is over")
        #expect(breaker.state == .open)
    }

    @Test("an open duration with a fraction of a second is kept whole, not only its seconds")
    func fractionalOpenDuration() {
        for duration in [Duration.milliseconds(500), .milliseconds(999), .milliseconds(2_250), .milliseconds(1)] {
            let clock = DeadlineClock.manual()
            let policy = CircuitBreakerPolicy(
                window: .calls(10), minimumCalls: 1, openDuration: duration, trialCalls: 1)
            let breaker = CircuitBreaker(name: "fraction", policy: policy, clock: clock)
            breaker.call(.failure)
            #expect(breaker.state == .open, "\(duration)")
            // Up to the millisecond before it (the breaker keeps time in milliseconds), every call
            // is refused.
            let runs = Counter()
            clock.advance(by: duration - .milliseconds(1))
            #expect(refusal(breaker.call(.success, runs: runs))?.state == .open, "\(duration)")
            #expect(runs.value == 0, "\(duration)")
            // Once it is over, the next call is the trial (and, as it succeeds, closes it).
            clock.advance(by: .milliseconds(1))
            breaker.call(.success, runs: runs)
            #expect(runs.value == 1, "\(duration)")
            #expect(breaker.state == .closed, "\(duration)")
        }
    }

    @Test("refusal says whether a call now would be refused, and with what, without changing the state")
    func refusalHint() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "hint", policy: breakerPolicy(minimumCalls: 1, trials: 2), clock: clock)
        #expect(breaker.refusal == nil)
        let opened = clock.now
        breaker.call(.failure)
        #expect(
            breaker.refusal == CircuitBreakerOpenError(breaker: "hint", state: .open, retryAt: opened + .seconds(10)))
        clock.advance(by: .seconds(10))
        // Due: a call now would be the first trial; the hint takes none.
        #expect(breaker.refusal == nil)
        #expect(breaker.state == .open)
        let first = breaker.pendingCall()
        #expect(breaker.refusal == nil)
        let second = breaker.pendingCall()
        #expect(breaker.refusal == CircuitBreakerOpenError(breaker: "hint", state: .halfOpen, retryAt: nil))
        _ = first.promise.fulfil(with: 1)
        _ = second.promise.fulfil(with: 2)
        #expect(breaker.state == .closed)
        #expect(breaker.refusal == nil)
    }

    @Test("half-open after the open duration admits exactly trialCalls calls")
    func halfOpenAdmitsTrials() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "trials", policy: breakerPolicy(minimumCalls: 1, trials: 3), clock: clock)
        breaker.call(.failure)
        clock.advance(by: .seconds(10) - .milliseconds(1))
        #expect(refusal(breaker.call(.success)) != nil)
        clock.advance(by: .milliseconds(1))
        let runs = Counter()
        let trials = (0..<3).map { _ in breaker.pendingCall(runs: runs) }
        #expect(breaker.state == .halfOpen)
        let fourth = refusal(breaker.call(.success, runs: runs))
        #expect(runs.value == 3)
        #expect(fourth?.state == .halfOpen)
        #expect(fourth?.retryAt == nil)
        for trial in trials { trial.promise.fulfil(with: 1) }
        #expect(trials.allSatisfy { $0.future.peek()?.value == 1 })
    }

    @Test("closes once every trial succeeded, with the old window forgotten")
    func closesAfterTrials() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "closing", policy: breakerPolicy(minimumCalls: 2, trials: 2), clock: clock)
        breaker.calls([.failure, .failure])
        #expect(breaker.state == .open)
        clock.advance(by: .seconds(10))
        let first = breaker.pendingCall()
        let second = breaker.pendingCall()
        first.promise.fulfil(with: 1)
        #expect(breaker.state == .halfOpen)
        second.promise.fulfil(with: 2)
        #expect(breaker.state == .closed)
        // Two failures of the old window and one new would open it; the new one alone does not.
        breaker.call(.failure)
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("a failed trial opens it again for another open duration, and a later trial decides nothing")
    func failedTrialReopens() {
        let clock = DeadlineClock.manual()
        let breaker = halfOpenBreaker(named: "reopening", trials: 2, clock: clock)
        let first = breaker.pendingCall()
        let second = breaker.pendingCall()
        clock.advance(by: .seconds(1))
        let reopened = clock.now
        first.promise.reject(with: BackendDown())
        #expect(breaker.state == .open)
        second.promise.fulfil(with: 1)
        #expect(breaker.state == .open)
        #expect(refusal(breaker.call(.success))?.retryAt == reopened + .seconds(10))
        clock.advance(by: .seconds(10))
        breaker.calls([.success, .success])
        #expect(breaker.state == .closed)
    }

    @Test("a slow trial opens it again, though it succeeded")
    func slowTrialReopens() {
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(
            window: .calls(10), minimumCalls: 1, slowCallDuration: .seconds(2), openDuration: .seconds(10),
            trialCalls: 1)
        let breaker = CircuitBreaker(name: "slow trial", policy: policy, clock: clock)
        breaker.call(.failure)
        clock.advance(by: .seconds(10))
        let trial = breaker.pendingCall()
        clock.advance(by: .seconds(2))
        trial.promise.fulfil(with: 1)
        #expect(trial.future.peek()?.value == 1)
        #expect(breaker.state == .open)
    }

    @Test("a trial runs to its end though its consumer gives up, and its answer closes the breaker")
    func trialOutlivesItsConsumer() {
        let clock = DeadlineClock.manual()
        let breaker = halfOpenBreaker(named: "probe", trials: 1, clock: clock)
        let stopped = Counter()
        let call = Promise<Int>()
        call.cancelWhenRequested { stopped.increment() }
        let trial = (promise: call, future: breaker.run { call.future })
        // A fan-out whose other call was refused gives up on the trial it started.
        trial.future.requestCancellation()
        #expect(stopped.value == 0)
        #expect(refusal(breaker.call(.success)) != nil)  // the one place is still taken
        trial.promise.fulfil(with: 1)
        #expect(breaker.state == .closed)
    }

    @Test("a trial with no answer within the slow-call duration reopens the breaker, and its call is asked to stop")
    func hungTrialReopens() {
        let clock = DeadlineClock.manual()
        let breaker = halfOpenBreaker(named: "hung probe", trials: 1, clock: clock)
        let stopped = Counter()
        // A call that can be asked to stop: its handler registered before its future is handed out.
        let call = Promise<Int>()
        call.cancelWhenRequested { stopped.increment() }
        let trial = (promise: call, future: breaker.run { call.future })
        #expect(breaker.state == .halfOpen)
        clock.advance(by: .seconds(60))  // the policy's slow-call duration
        #expect(stopped.value == 1)
        trial.promise.cancel()  // the call stops, as asked
        #expect(breaker.state == .open)
    }

    @Test("a cancelled trial gives its place back to another call")
    func cancelledTrialGivesPlaceBack() {
        let clock = DeadlineClock.manual()
        let breaker = halfOpenBreaker(named: "cancelled trial", trials: 1, clock: clock)
        let trial = breaker.pendingCall()
        #expect(refusal(breaker.call(.success)) != nil)
        trial.promise.cancel()
        #expect(breaker.state == .halfOpen)
        let runs = Counter()
        breaker.call(.success, runs: runs)
        #expect(runs.value == 1)
        #expect(breaker.state == .closed)
    }

    @Test("cancelled calls and a limit's refusals count as nothing")
    func cancellationAndLimitNotCounted() {
        let breaker = CircuitBreaker(name: "not counted", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let cancelled = breaker.pendingCall()
        cancelled.promise.cancel()
        _ = breaker.run { Future<Int>.cancelled() }
        let limit = ConcurrencyLimit(maximum: 1)
        let holder = Promise<Int>()
        _ = limit.run { holder.future }
        let shed = breaker.run { limit.run { Future<Int>.fulfilled(with: 1) } }
        #expect(shed.peek()?.error is ConcurrencyLimitExceededError)
        _ = breaker.run { Future<Int>.rejected(with: FutureCancelledError(indirectError: nil)) }
        #expect(breaker.state == .closed)
        holder.fulfil(with: 1)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("isFailure decides which rejections count: the others are successes")
    func isFailurePredicate() {
        struct NotFound: Error {}
        let breaker = CircuitBreaker(
            name: "predicate", policy: breakerPolicy(minimumCalls: 2), clock: .manual(),
            isFailure: { !($0 is NotFound) })
        for _ in 0..<5 { _ = breaker.run { Future<Int>.rejected(with: NotFound()) }.peek() }
        #expect(breaker.state == .closed)
        // Five successes and four failures: below the rate; the fifth failure reaches it.
        breaker.calls([.failure, .failure, .failure, .failure])
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("a closure that throws counts as a failed call")
    func throwingBody() {
        let breaker = CircuitBreaker(name: "throwing", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let call: Future<Int> = breaker.run { throw BackendDown() }
        #expect(call.peek()?.error is BackendDown)
        #expect(breaker.state == .open)
    }

    @Test("slow calls open it when their rate reaches its threshold, fast ones do not count as slow")
    func slowCalls() {
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(
            window: .calls(10), minimumCalls: 3, slowCallDuration: .seconds(1), slowCallRateThreshold: 0.5)
        let breaker = CircuitBreaker(name: "slow", policy: policy, clock: clock)
        breaker.calls([.success, .success])
        let slow = breaker.pendingCall()
        clock.advance(by: .seconds(1))
        slow.promise.fulfil(with: 1)  // 1 slow of 3
        #expect(breaker.state == .closed)
        let another = breaker.pendingCall()
        clock.advance(by: .seconds(5))
        another.promise.fulfil(with: 1)  // 2 slow of 4
        #expect(breaker.state == .open)
    }

    @Test("a call given up on after running slow counts as a slow call (a hang); one given up on sooner as nothing")
    func hangCountsAsSlow() {
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(
            window: .calls(10), minimumCalls: 3, slowCallDuration: .seconds(1), slowCallRateThreshold: 0.5)
        let breaker = CircuitBreaker(name: "hang", policy: policy, clock: clock)
        breaker.calls([.success, .success])
        // Cancelled before it had run slow: nothing, as any cancellation.
        let early = breaker.pendingCall()
        early.future.requestCancellation()
        early.promise.cancel()
        // Two that hang, each given up on after a second: two slow calls of four.
        for _ in 0..<2 {
            let hung = breaker.pendingCall()
            #expect(breaker.state == .closed)
            clock.advance(by: .seconds(1))
            hung.promise.cancel()
        }
        #expect(breaker.state == .open)
    }

    @Test("a time window forgets the calls older than its duration")
    func timeWindow() {
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(window: .time(.seconds(10), buckets: 10), minimumCalls: 2)
        let breaker = CircuitBreaker(name: "time window", policy: policy, clock: clock)
        breaker.call(.failure)
        clock.advance(by: .seconds(11))
        breaker.call(.failure)
        #expect(breaker.state == .closed)
        clock.advance(by: .seconds(5))
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("closed again, a time window counts the failures of its current slice at once")
    func timeWindowAfterClosing() {
        let clock = DeadlineClock.manual()
        let policy = CircuitBreakerPolicy(
            window: .time(.seconds(60), buckets: 10), minimumCalls: 2, openDuration: .seconds(10), trialCalls: 1)
        let breaker = CircuitBreaker(name: "time window closing", policy: policy, clock: clock)
        breaker.calls([.failure, .failure])
        clock.advance(by: .seconds(10))
        breaker.call(.success)  // the trial: closed, in the slice from 6 to 12 seconds
        #expect(breaker.state == .closed)
        breaker.calls([.failure, .failure])
        #expect(breaker.state == .open)
    }

    @Test("a count window counts only the last calls")
    func countWindow() {
        let breaker = CircuitBreaker(
            name: "count window", policy: breakerPolicy(calls: 4, minimumCalls: 4), clock: .manual())
        breaker.calls([.failure, .success, .success, .success, .success])
        breaker.call(.failure)  // the last four: 1 failure
        #expect(breaker.state == .closed)
        breaker.call(.failure)  // 2 of the last 4
        #expect(breaker.state == .open)
    }

    @Test("with another context, the breaker decides there, and a refused call never runs")
    func otherContext() {
        let queue = DrainableQueue(.init(label: "breaker"))
        let breaker = CircuitBreaker(name: "context", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let failed = breaker.run(on: queue) { Future<Int>.rejected(with: BackendDown()) }
        queue.drain()
        #expect(failed.peek()?.error is BackendDown)
        #expect(breaker.state == .open)
        let runs = Counter()
        let refused = breaker.run(on: queue) {
            runs.increment()
            return Future<Int>.fulfilled(with: 1)
        }
        queue.drain()
        #expect(refusal(refused.peek()) != nil)
        #expect(runs.value == 0)
    }

    @Test("each change of state is reported with the breaker's name, the old state and the new")
    func reportsStateChanges() {
        let recorder = breakerStateChanges  // installs the recording handler first
        let clock = DeadlineClock.manual()
        let name = "reported \(UInt64.random(in: 0...UInt64.max))"
        let breaker = halfOpenBreaker(named: name, trials: 1, clock: clock)
        breaker.call(.success)
        let changes = recorder.events.filter { $0.details["breaker"] == name }
        #expect(
            changes.map { "\($0.details["from"] ?? "?")>\($0.details["to"] ?? "?")" }
                == ["closed>open", "open>half-open", "half-open>closed"])
        #expect(changes.allSatisfy { $0.site.name == "CircuitBreaker" && $0.severity == .notice })
        #expect(changes.first?.description == "Petal: circuit breaker \(name) went from closed to open")
    }

    @Test("the states describe themselves as closed, open and half-open")
    func stateDescriptions() {
        #expect([CircuitBreaker.State.closed, .open, .halfOpen].map(\.description) == ["closed", "open", "half-open"])
    }
}
