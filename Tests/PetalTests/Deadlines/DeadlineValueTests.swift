import Petal
import Testing

/// Deadlines made of any value a caller may pass, and what they cost to carry.
@Suite("Deadlines: values")
struct DeadlineValueTests {
    @Test("a deadline is three words, so that carrying one with a callback allocates nothing")
    func layout() {
        #expect(MemoryLayout<Deadline>.size == 3 * MemoryLayout<Int>.size)
    }

    @Test("any budget gives a deadline within a century of now; a negative one has passed")
    func hostileBudgets() {
        let clock = DeadlineClock.manual()
        for budget in HostileValues.specialDurations {
            let deadline = Deadline(after: budget, clock: clock)
            #expect(deadline.remaining >= .zero)
            #expect(deadline.remaining <= DeadlineClock.longestWait)
            #expect(deadline.hasPassed == (budget <= .zero))
        }
    }

    @Test("any budget bound around every operation refuses exactly when it has passed, and never traps")
    func hostileBudgetsBound() {
        let clock = DeadlineClock.manual()
        let limit = ConcurrencyLimit(maximum: 64)
        for budget in HostileValues.specialDurations {
            let deadline = Deadline(after: budget, clock: clock)
            let runs = Counter()
            let results: [Future<Int>] = Deadline.withValue(deadline) {
                [
                    Future.hedging(
                        HedgingPolicy(copies: 2, delay: .milliseconds(5)), clock: clock, counted(runs, returning: 1)),
                    Future.retrying(attempts: 2, clock: clock, counted(runs, returning: 1)),
                    limit.run(counted(runs, returning: 1)),
                    Future.startFollowing(executing: counted(runs, returning: 1)),
                    Future.start {
                        runs.increment()
                        return 1
                    },
                ]
            }
            #expect(runs.value == (deadline.hasPassed ? 0 : 5), "budget \(budget)")
            for result in results {
                #expect(deadline.hasPassed ? isExceeded(result, by: deadline) : result.peek()?.value == 1)
            }
        }
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("Deadline(at:) far in the past or future is moved to within a century, and a timeout under it is safe")
    func farInstants() {
        let clock = DeadlineClock.manual()
        let now = clock.now
        let past = Deadline(at: now.advanced(by: .seconds(-Int64(1) << 40)), clock: clock)
        let future = Deadline(at: now.advanced(by: .seconds(Int64(1) << 40)), clock: clock)
        #expect(past.hasPassed)
        #expect(past.instant >= now.advanced(by: .zero - DeadlineClock.longestWait))
        #expect(!future.hasPassed)
        #expect(future.remaining <= DeadlineClock.longestWait)
        let call = Promise<Int>()
        let refused = Deadline.withValue(past) { call.future.timeout(after: .seconds(1), clock: clock) }
        let bounded = Deadline.withValue(future) { call.future.timeout(after: .seconds(1), clock: clock) }
        #expect(isExceeded(refused, by: past))
        clock.advance(by: .seconds(1))
        #expect(timeoutError(bounded)?.duration == .seconds(1))
        call.fulfil(with: 1)
    }

    @Test("exceededError carries the deadline's instant and no duration")
    func exceededError() {
        let deadline = Deadline(after: .milliseconds(5), clock: DeadlineClock.manual())
        #expect(deadline.exceededError.deadline == deadline.instant)
        #expect(deadline.exceededError.duration == nil)
    }
}
