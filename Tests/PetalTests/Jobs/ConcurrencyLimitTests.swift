import CPetal
import Foundation
import Testing

@testable import Petal

/// Operations whose promises the test resolves: each records that it began.
final class LimitOperations: @unchecked Sendable {
    // @unchecked: every field is reached under `lock`.
    private let lock = NSLock()
    private var promises: [Int: Promise<Int>] = [:]
    private var began: [Int] = []
    /// Apart from the promises: a stop that held them (through `self`) would make a cycle that
    /// outlives a test whose operations never finish (AddressSanitizer reports it).
    private let stopped = Recorder<Int>()

    /// The body of operation `id`: records its start, returns a promise's future whose stop counts.
    func body(_ id: Int) -> @Sendable () -> Future<Int> {
        {
            let promise = Promise<Int>()
            self.lock.withLock {
                self.promises[id] = promise
                self.began.append(id)
            }
            promise.cancelWhenRequested { [stopped = self.stopped] in stopped.record(id) }
            return promise.future
        }
    }

    var order: [Int] { lock.withLock { began } }
    func stops(_ id: Int) -> Int { stopped.events.count { $0 == id } }
    func finish(_ id: Int, with value: Int) {
        let promise = lock.withLock { promises[id] }
        _ = promise?.fulfil(with: value)
    }
}

@Suite("Jobs: a concurrency limit")
struct ConcurrencyLimitTests {
    @Test("below the limit an operation runs at once and its slot is given back when it resolves")
    func belowTheLimit() {
        let limit = ConcurrencyLimit(maximum: 2, queue: 1)
        let operations = LimitOperations()
        let first = limit.run(operations.body(1))
        #expect(operations.order == [1])
        #expect(limit.inFlight == 1 && limit.waiting == 0)
        operations.finish(1, with: 10)
        #expect(describe(first.peek()) == "fulfilled(10)")
        #expect(limit.inFlight == 0)
    }

    @Test("a full limit queues up to its queue, refuses the rest at once, and admits in FIFO order")
    func queueAndRefuse() {
        let limit = ConcurrencyLimit(maximum: 2, queue: 2)
        let operations = LimitOperations()
        let futures = (1...5).map { limit.run(operations.body($0)) }
        #expect(operations.order == [1, 2])
        #expect(limit.inFlight == 2 && limit.waiting == 2)
        #expect(describe(futures[4].peek()) == "rejected(\(ConcurrencyLimitExceededError(maximum: 2, queue: 2)))")
        #expect(limit.refusedCount == 1)
        operations.finish(2, with: 20)
        #expect(operations.order == [1, 2, 3])
        operations.finish(1, with: 10)
        #expect(operations.order == [1, 2, 3, 4])
        #expect(limit.inFlight == 2 && limit.waiting == 0)
        operations.finish(4, with: 40)
        operations.finish(3, with: 30)
        #expect(
            futures.prefix(4).map { describe($0.peek()) } == [
                "fulfilled(10)", "fulfilled(20)", "fulfilled(30)", "fulfilled(40)",
            ])
        #expect(limit.inFlight == 0)
        // The refusal names the limit.
        #expect(
            "\(ConcurrencyLimitExceededError(maximum: 2, queue: 2))".contains("2 operation(s) in flight and 2 waiting"))
    }

    @Test("isFull says whether the next operation would be refused, as the limit fills and drains")
    func isFullFollowsTheCounts() {
        let limit = ConcurrencyLimit(maximum: 2, queue: 1)
        let operations = LimitOperations()
        var full: [Bool] = [limit.isFull]
        let futures = (1...3).map { id -> Future<Int> in
            let future = limit.run(operations.body(id))
            full.append(limit.isFull)
            return future
        }
        // Two in flight is not full while a place in the queue is left; the third fills it.
        #expect(full == [false, false, false, true])
        let refused = limit.run(operations.body(4))
        #expect(limit.refusedCount == 1 && refused.peek() != nil)
        operations.finish(1, with: 10)  // hands its slot to 3: two in flight, none waiting
        #expect(!limit.isFull && limit.inFlight == 2 && limit.waiting == 0)
        operations.finish(2, with: 20)
        operations.finish(3, with: 30)
        #expect(!limit.isFull && limit.inFlight == 0)
        #expect(futures.map { describe($0.peek()) } == ["fulfilled(10)", "fulfilled(20)", "fulfilled(30)"])
        // With no queue, full means every slot taken.
        let noQueue = ConcurrencyLimit(maximum: 1)
        let only = noQueue.run(operations.body(5))
        #expect(noQueue.isFull)
        operations.finish(5, with: 50)
        #expect(!noQueue.isFull && describe(only.peek()) == "fulfilled(50)")
    }

    @Test("a waiting operation whose consumer gave up leaves the queue and never starts")
    func waiterLeaves() {
        let limit = ConcurrencyLimit(maximum: 1, queue: 3)
        let operations = LimitOperations()
        let futures = (1...4).map { limit.run(operations.body($0)) }
        #expect(limit.waiting == 3)
        futures[2].requestCancellation()
        #expect(describe(futures[2].peek()) == "cancelled(nil)")
        #expect(limit.waiting == 2)
        // The freed place in the queue is taken by a new operation, which waits behind the others.
        let fifth = limit.run(operations.body(5))
        #expect(limit.waiting == 3)
        operations.finish(1, with: 1)
        operations.finish(2, with: 2)
        operations.finish(4, with: 4)
        #expect(operations.order == [1, 2, 4, 5])
        operations.finish(5, with: 5)
        #expect(describe(fifth.peek()) == "fulfilled(5)")
        #expect(limit.inFlight == 0 && limit.waiting == 0)
    }

    @Test("a request on a running operation reaches its producer; the slot frees when it stops")
    func requestOnRunning() {
        let limit = ConcurrencyLimit(maximum: 1, queue: 1)
        let operations = LimitOperations()
        _ = limit.run(operations.body(1))
        let second = limit.run(operations.body(2))
        operations.finish(1, with: 1)
        #expect(operations.order == [1, 2])
        second.requestCancellation()
        #expect(operations.stops(2) == 1)
        #expect(describe(second.peek()) == "cancelled(nil)")
        #expect(limit.inFlight == 0)
    }

    @Test("a chained request on the limit's first operation reaches it directly")
    func requestOnImmediate() {
        let limit = ConcurrencyLimit(maximum: 1)
        let operations = LimitOperations()
        let chained = limit.run(operations.body(1)).then { $0 * 2 }
        chained.requestCancellation()
        #expect(operations.stops(1) == 1)
        #expect(limit.inFlight == 0)
    }

    @Test("a body that throws rejects its operation and gives its slot back, waiting or not")
    func throwingBody() {
        let limit = ConcurrencyLimit(maximum: 1, queue: 1)
        let operations = LimitOperations()
        let thrown = limit.run { () throws -> Future<Int> in throw TestError(1) }
        #expect(describe(thrown.peek()) == "rejected(\(TestError(1)))")
        #expect(limit.inFlight == 0)
        _ = limit.run(operations.body(1))
        let queued = limit.run { () throws -> Future<Int> in throw TestError(2) }
        operations.finish(1, with: 1)
        #expect(describe(queued.peek()) == "rejected(\(TestError(2)))")
        #expect(limit.inFlight == 0 && limit.waiting == 0)
    }

    @Test("an operation on a context runs there, once admitted")
    func onAContext() {
        let limit = ConcurrencyLimit(maximum: 1, queue: 1)
        let queue = DispatchQueue(label: "limit")
        let operations = LimitOperations()
        let first = limit.run(on: queue, operations.body(1))
        queue.sync {}
        #expect(operations.order == [1])
        operations.finish(1, with: 1)
        #expect(first.wait().value == 1)
        #expect(limit.inFlight == 0)
    }

    @Test("hostile limits are read as documented and reported")
    func hostileValues() {
        let start = adjustedArguments.events.count
        let tiny = ConcurrencyLimit(maximum: 0, queue: -5)
        #expect(tiny.maximum == 1 && tiny.queue == 0)
        #expect(adjustmentReported("ConcurrencyLimit.maximum", given: "0", since: start))
        #expect(adjustmentReported("ConcurrencyLimit.queue", given: "-5", since: start))
        let huge = ConcurrencyLimit(maximum: .max, queue: .max)
        #expect(huge.maximum == ConcurrencyLimit.largestCount && huge.queue == ConcurrencyLimit.largestCount)
        let operations = LimitOperations()
        _ = tiny.run(operations.body(1))
        let refused = tiny.run(operations.body(2))
        #expect(refused.peek()?.error is ConcurrencyLimitExceededError)
        operations.finish(1, with: 1)
    }

    @Test("the word's moves: admit and give back only while nothing waits; wait only when full")
    func wordMoves() {
        let full: petal_word = 2
        #expect(LimitWord.admitting(1, maximum: 2) == 2)
        #expect(LimitWord.admitting(full, maximum: 2) == nil)
        #expect(LimitWord.queueing(1, maximum: 2, queue: 1) == nil)  // a free slot: admit instead
        let waiting = LimitWord.queueing(full, maximum: 2, queue: 1)!
        #expect(LimitWord.waiting(waiting) == 1 && LimitWord.inFlight(waiting) == 2)
        #expect(LimitWord.queueing(waiting, maximum: 2, queue: 1) == nil)
        #expect(LimitWord.admitting(waiting, maximum: 3) == nil)  // something waits
        #expect(LimitWord.releasing(waiting) == nil)
        #expect(LimitWord.handingOver(waiting) == full)
        #expect(LimitWord.releasing(full) == 1)
        #expect(LimitWord.releasing(0) == nil)
    }
}
