import Foundation
import Synchronization
import Testing

@testable import Petal

/// The operations running under a limit, for the threads of a stress test to finish.
private final class Running: @unchecked Sendable {
    // @unchecked: `promises` is reached only under `lock`.
    private let lock = NSLock()
    private var promises: [Promise<Int>] = []
    /// Operations whose body has begun and whose future has not resolved yet.
    let active = Atomic<Int>(0)
    /// The most seen at once, checked at every admission.
    let mostActive = Atomic<Int>(0)

    func add(_ promise: Promise<Int>) { lock.withLock { promises.append(promise) } }

    /// Finishes one running operation (the oldest or the newest, as `newest` says); false if none.
    func finishOne(newest: Bool) -> Bool {
        guard
            let promise = lock.withLock({
                promises.isEmpty ? nil : (newest ? promises.removeLast() : promises.removeFirst())
            })
        else { return false }
        _ = promise.fulfil(with: 1)
        return true
    }
}

@Suite("Jobs: a concurrency limit under contention", .serialized)
struct ConcurrencyLimitRaceTests {
    /// How the maximum moves while the threads run.
    enum Moving: String, CaseIterable, CustomTestStringConvertible {
        case fixed, set, adaptive
        var testDescription: String { rawValue }
    }

    @Test(
        "four threads submitting, finishing and giving up: the limit never exceeded, nothing admitted twice, nothing lost",
        arguments: Moving.allCases
    )
    func contention(moving: Moving) {
        // Whatever moves, the maximum stays within 1...4: no more than 4 ever run at once.
        let maximum = 4
        let limit =
            moving == .adaptive
            ? ConcurrencyLimit(adaptive: AdaptiveLimit(range: 1...maximum, window: 8, backoff: 0.5), queue: 6)
            : ConcurrencyLimit(maximum: maximum, queue: 6)
        let running = Running()
        let threads = 4
        let perThread = raceScaled(50_000)
        let began = Counter()
        let beganTwice = Counter()
        // A Recorder (NSLock), not a Synchronization.Mutex, whose ordering TSan cannot see.
        let results = Recorder<[(future: Future<Int>, starts: Counter)]>()
        onThreads(threads) { thread in
            var mine: [(future: Future<Int>, starts: Counter)] = []
            mine.reserveCapacity(perThread)
            var generator = SeededGenerator(seed: UInt64(thread + 1))
            for index in 0..<perThread {
                let starts = Counter()
                let immediate = index % 3 == 0
                let future = limit.run { () -> Future<Int> in
                    starts.increment()
                    if starts.value > 1 { beganTwice.increment() }
                    began.increment()
                    let now = running.active.add(1, ordering: .relaxed).newValue
                    running.mostActive.max(now, ordering: .relaxed)
                    if immediate {
                        running.active.subtract(1, ordering: .relaxed)
                        return .fulfilled(with: 1)
                    }
                    let promise = Promise<Int>(onRepeatedResolution: .ignore)
                    promise.cancelWhenRequested {}
                    // Counted out by the first callback, which runs before the limit's own (FIFO):
                    // the slot is given back only after it.
                    promise.future.whenResolved { _ in running.active.subtract(1, ordering: .relaxed) }
                    running.add(promise)
                    return promise.future
                }
                mine.append((future, starts))
                // Fewer finishes than submissions, so that the limit fills, its queue too, and
                // operations are refused; requests reach waiting and running operations alike.
                let draw = generator.next()
                if moving == .set && draw % 16 == 7 {
                    // Down or up while operations run and wait: raised, the waiters take the slots.
                    limit.setMaximum(Int(draw / 16 % UInt64(maximum)) + 1)
                }
                switch draw % 8 {
                case 0: future.requestCancellation()
                case 1: _ = running.finishOne(newest: true)
                case 2, 3, 4: _ = running.finishOne(newest: false)
                default: break
                }
            }
            results.record(mine)
        }
        // Whatever still runs or waits: finish it (a waiter is admitted as slots free).
        while running.finishOne(newest: false) {}
        let operations = results.events.flatMap { $0 }
        let unresolved = operations.count { $0.future.peek() == nil }
        let unstarted = operations.filter { $0.starts.value == 0 }
        let refused = unstarted.count { $0.future.peek()?.error is ConcurrencyLimitExceededError }
        let left = unstarted.count { $0.future.peek()?.isCancelled == true }
        #expect(operations.count == threads * perThread)
        #expect(unresolved == 0)
        #expect(beganTwice.value == 0)
        #expect(running.mostActive.load(ordering: .relaxed) <= maximum)
        #expect(limit.inFlight == 0 && limit.waiting == 0)
        // Nothing lost: every operation began once, was refused, or left the queue unstarted.
        #expect(began.value + refused + left == operations.count)
        #expect(limit.refusedCount == refused)
        #expect(refused > 0 && left > 0, "\(refused) refused, \(left) left the queue")
    }
}
