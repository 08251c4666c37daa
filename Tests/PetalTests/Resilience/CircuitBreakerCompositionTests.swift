import Petal
import Testing

/// The circuit breaker with retries, hedges and a limit around it or inside it: what one of its
/// calls is, as the catalog's article says.
@Suite("Circuit breaker: with retrying, hedging and limits")
struct CircuitBreakerCompositionTests {
    @Test("outside retrying, the breaker counts one failure per request, whatever its attempts")
    func outsideRetrying() {
        let breaker = CircuitBreaker(name: "outside retrying", policy: breakerPolicy(minimumCalls: 2), clock: .manual())
        let runs = Counter()
        let request = { breaker.run { Future<Int>.retrying(attempts: 3, failing(runs)) } }
        #expect(request().peek()?.error is TestError)
        #expect(runs.value == 3)
        #expect(breaker.state == .closed)  // one call, below the minimum of two
        _ = request().peek()
        #expect(breaker.state == .open)
        #expect(refusal(request().peek()) != nil)
        #expect(runs.value == 6)
    }

    @Test("inside retrying, the breaker counts every attempt, and refuses the attempts once open")
    func insideRetrying() {
        let breaker = CircuitBreaker(name: "inside retrying", policy: breakerPolicy(minimumCalls: 2), clock: .manual())
        let runs = Counter()
        let request = Future<Int>.retrying(attempts: 3) { breaker.run(failing(runs)) }
        #expect(runs.value == 2)  // the third attempt was refused
        #expect(breaker.state == .open)
        #expect(refusal(request.peek()) != nil)
    }

    @Test("inside hedging, a losing copy that stops when asked counts as nothing")
    func insideHedging() {
        let clock = DeadlineClock.manual()
        let breaker = CircuitBreaker(name: "inside hedging", policy: breakerPolicy(minimumCalls: 1), clock: clock)
        let first = Promise<Int>()
        first.cancelWhenRequested { _ = first.cancel() }
        let second = Promise<Int>()
        let promises = [first, second]
        let copies = Counter()
        let call = Future<Int>.hedging(HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock) {
            copies.increment()
            return breaker.run { promises[copies.value - 1].future }
        }
        clock.advance(by: .milliseconds(5))
        #expect(copies.value == 2)
        second.fulfil(with: 2)
        #expect(call.peek()?.value == 2)
        #expect(first.future.peek()?.isCancelled == true)
        // Counted as a failure, the loser would have made it 1 of 2 calls: at the threshold.
        #expect(breaker.state == .closed)
        breaker.call(.failure)
        #expect(breaker.state == .open)
    }

    @Test("inside a limit, an open breaker's refusal gives the limit's slot back at once")
    func insideLimit() {
        let breaker = CircuitBreaker(name: "inside limit", policy: breakerPolicy(minimumCalls: 1), clock: .manual())
        let limit = ConcurrencyLimit(maximum: 1)
        _ = limit.run { breaker.run { Future<Int>.rejected(with: BackendDown()) } }.peek()
        #expect(breaker.state == .open)
        let refused = limit.run { breaker.run { Future<Int>.fulfilled(with: 1) } }
        #expect(refusal(refused.peek()) != nil)
        #expect(limit.inFlight == 0)
        #expect(limit.refusedCount == 0)
    }
}
