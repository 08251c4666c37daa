import Dispatch
import Foundation
import Testing

@testable import Petal

/// The timeout rejection of `outcome`, if it is one.
private func timeoutError<Value>(_ outcome: Outcome<Value>) -> FutureTimeoutError? {
    guard case .rejected(let error) = outcome else { return nil }
    return error as? FutureTimeoutError
}

/// The calling thread's identity.
private func currentThreadID() -> UInt { UInt(pthread_self()) }

/// Runs `body` while the shared timer thread is held inside an action, so that no deadline
/// fires until `body` returns, however short: callbacks subscribed in `body` are certainly
/// subscribed before their timeouts resolve.
private func holdingTimerThread(_ body: () -> Void) {
    let started = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    #expect(throws: Never.self) {
        try DeadlineScheduler.shared.schedule(
            DeadlineEntry(deadline: .now) {
                started.signal()
                release.wait()
            })
    }
    started.wait()
    body()
    release.signal()
}

/// Serialized: these tests count the process-wide timer's pending entries, so no other test may
/// add or remove entries meanwhile. Every other test that uses the timer belongs to this suite
/// (retrying with a delay is in an extension beside the retrying tests).
@Suite("Timeouts", .serialized)
struct TimeoutTests {
    // MARK: The deadline passes first

    @Test("a receiver still pending at a 1 ms deadline makes the timeout rejected with FutureTimeoutError")
    func pendingReceiverTimesOut() {
        let clock = DeadlineClock.manual()
        let promise = Promise<Int>()
        let timed = promise.future.timeout(after: .milliseconds(1), clock: clock)
        clock.advance(by: .milliseconds(1))
        let outcome = timed.wait()
        let error = timeoutError(outcome)
        #expect(error != nil)
        #expect(error?.duration == .milliseconds(1))
        #expect(error?.description == "the future did not resolve within 0.001 seconds")
        // The clock took the entry out of its heap before resolving.
        #expect(clock.pendingDeadlineCount == 0)
        #expect(!promise.isResolved)
    }

    @Test("a timeout never changes its receiver, which can still resolve after the deadline")
    func receiverUnchangedByTimeout() {
        let clock = DeadlineClock.manual()
        let promise = Promise<Int>()
        let timed = promise.future.timeout(after: .milliseconds(1), clock: clock)
        clock.advance(by: .milliseconds(1))
        #expect(timeoutError(timed.wait()) != nil)
        #expect(promise.future.peek() == nil)
        #expect(promise.fulfil(with: 5))
        #expect(promise.future.peek()?.value == 5)
        // The late resolution is silently ignored by the timed-out future.
        #expect(timeoutError(timed.wait()) != nil)
    }

    @Test("the deadline form times out with the deadline it was given and no duration")
    func deadlineFormTimesOut() {
        let clock = DeadlineClock.manual()
        let deadline = clock.now.advanced(by: .milliseconds(1))
        // Held: a dropped promise would cancel its future, and the timeout would follow that.
        let promise = Promise<Int>()
        let timed = promise.future.timeout(at: deadline, clock: clock)
        clock.advance(to: deadline)
        let error = timeoutError(timed.wait())
        #expect(error?.deadline == deadline)
        #expect(error?.duration == nil)
        #expect(error?.description == "the future did not resolve by its deadline")
        #expect(!promise.isResolved)
    }

    // MARK: The receiver resolves first

    @Test("a receiver fulfilled before a one-hour deadline is followed, and its deadline is removed")
    func fulfilledInTime() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let promise = Promise<String>()
        let timed = promise.future.timeout(after: .seconds(3600))
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before + 1)
        #expect(timed.peek() == nil)
        promise.fulfil(with: "done")
        // Inline: resolved on this thread before fulfil returned.
        #expect(timed.peek()?.value == "done")
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    @Test("a receiver rejected in time cancels the timeout with the rejection as its indirect error")
    func rejectedInTime() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let promise = Promise<Int>()
        let timed = promise.future.timeout(after: .seconds(3600))
        promise.reject(with: TestError(7))
        let outcome = timed.peek()
        #expect(outcome?.isCancelled == true)
        #expect(outcome?.error as? TestError == TestError(7))
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    @Test("a receiver cancelled in time cancels the timeout with the same indirect error", arguments: [false, true])
    func cancelledInTime(withError: Bool) {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let promise = Promise<Int>()
        let timed = promise.future.timeout(at: .now.advanced(by: .seconds(3600)))
        promise.cancel(withIndirectError: withError ? TestError(8) : nil)
        let outcome = timed.peek()
        #expect(outcome?.isCancelled == true)
        if withError {
            #expect(outcome?.error as? TestError == TestError(8))
        } else {
            #expect(outcome?.error == nil)
        }
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    @Test("an abandoned receiver cancels the timeout with the AbandonedPromiseError")
    func abandonedReceiver() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        var promise: Promise<Int>? = Promise<Int>()
        let timed = promise!.future.timeout(after: .seconds(3600))
        promise = nil
        #expect(timed.peek()?.isCancelled == true)
        #expect(timed.peek()?.error is AbandonedPromiseError)
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    // MARK: Answered at once

    @Test("an already resolved receiver is answered at once, without the timer")
    func alreadyResolvedReceiver() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let fulfilled = Future<Int>.fulfilled(with: 1).timeout(after: .seconds(3600))
        let rejected = Future<Int>.rejected(with: TestError(2)).timeout(after: .zero)
        let cancelled = Future<Int>.cancelled(withIndirectError: TestError(3)).timeout(at: .now)
        let bare = Future<Int>.cancelled().timeout(after: .milliseconds(1))
        #expect(fulfilled.peek()?.value == 1)
        #expect(rejected.peek()?.isCancelled == true)
        #expect(rejected.peek()?.error as? TestError == TestError(2))
        #expect(cancelled.peek()?.isCancelled == true)
        #expect(cancelled.peek()?.error as? TestError == TestError(3))
        #expect(bare.peek()?.isCancelled == true)
        #expect(bare.peek()?.error == nil)
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    @Test("a zero, negative or past deadline rejects a pending receiver at once, without the timer")
    func pastDeadline() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let promise = Promise<Int>()
        let timeouts = [
            promise.future.timeout(after: .zero),
            promise.future.timeout(after: .seconds(-1)),
            promise.future.timeout(at: .now.advanced(by: .seconds(-1))),
        ]
        for timed in timeouts {
            #expect(timeoutError(timed.peek() ?? .fulfilled(0)) != nil)
        }
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
        promise.fulfil(with: 1)
        #expect(timeouts.allSatisfy { timeoutError($0.peek() ?? .fulfilled(0)) != nil })
    }

    @Test("a deadline already passed gives up on the receiver's work at once, as an expiry does, unless told not to")
    func pastDeadlineVotes() {
        let asked = Counter()
        let promise = Promise<Int>()
        promise.cancelWhenRequested { asked.increment() }
        let kept = promise.future.timeout(after: .zero, cancellingUpstream: false)
        #expect(timeoutError(kept.peek() ?? .fulfilled(0)) != nil)
        #expect(asked.value == 0)
        #expect(!promise.isResolved)
        let given = promise.future.timeout(at: .now.advanced(by: .seconds(-1)))
        #expect(timeoutError(given.peek() ?? .fulfilled(0)) != nil)
        // Its only counted dependent gave up: the work is asked, and its future cancelled.
        #expect(asked.value == 1)
        #expect(promise.future.peek()?.isCancelled == true)
    }

    // MARK: Where callbacks run

    @Test("every timed-out future's inline callbacks run on the one timer thread, not the caller's")
    func timedOutCallbacksRunOnTimerThread() {
        let threads = Recorder<UInt>()
        let promises = (0..<4).map { _ in Promise<Int>() }
        // Waits for the callbacks, not the futures: a wait returns once a future is resolved,
        // while the timer thread may still be running that future's callbacks.
        let ran = DispatchSemaphore(value: 0)
        var timeouts: [Future<Int>] = []
        holdingTimerThread {
            timeouts = promises.map { $0.future.timeout(after: .milliseconds(1)) }
            for timed in timeouts {
                timed.whenRejected { _ in
                    threads.record(currentThreadID())
                    ran.signal()
                }
            }
        }
        for _ in timeouts { ran.wait() }
        #expect(threads.events.count == 4)
        #expect(Set(threads.events).count == 1)
        #expect(!threads.events.contains(currentThreadID()))
        // Also keeps the promises alive until here: a dropped one would cancel its future.
        #expect(promises.allSatisfy { !$0.isResolved })
    }

    @Test("with a queue context, the timeout resolves on that queue, whether the deadline or the receiver wins")
    func queueContext() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "petal.tests.timeout")
        queue.setSpecific(key: key, value: "mine")
        let seen = Recorder<String>()

        // A manual clock: the deadline passes only once the callback is subscribed.
        let clock = DeadlineClock.manual()
        let unresolved = Promise<Int>()
        let expired = unresolved.future.timeout(after: .milliseconds(1), on: queue, clock: clock)
        // Each callback signals: a wait returns once its future is resolved, which can be before
        // the queue has run the callbacks subscribed earlier.
        let ran = DispatchSemaphore(value: 0)
        expired.whenRejected { _ in
            seen.record(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
            ran.signal()
        }
        clock.advance(by: .milliseconds(1))
        #expect(timeoutError(expired.wait()) != nil)
        ran.wait()
        #expect(!unresolved.isResolved)

        let promise = Promise<Int>()
        let followed = promise.future.timeout(after: .seconds(3600), on: queue)
        followed.whenFulfilled { _ in
            seen.record(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
            ran.signal()
        }
        promise.fulfil(with: 1)
        #expect(followed.wait().value == 1)
        ran.wait()
        // Inline callbacks run on the queue that resolved the future.
        #expect(seen.events == ["mine", "mine"])
    }

    // MARK: Many at once

    @Test("many timeouts from many threads each resolve once, as their receivers or deadlines decide")
    func manyTimeoutsFromManyThreads() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let threads = 8
        let perThread = scaled(60, floor: 6)
        let resolvedOnce = Counter()
        let followed = Counter()
        let expired = Counter()
        let raceFollowed = Counter()
        let raceExpired = Counter()
        let wrong = Counter()
        onThreads(threads) { thread in
            for index in 0..<perThread {
                let promise = Promise<Int>()
                let value = thread * 1_000 + index
                switch index % 3 {
                case 0:
                    // Fulfilled long before its deadline.
                    let timed = promise.future.timeout(after: .seconds(3600))
                    timed.whenResolved { _ in resolvedOnce.increment() }
                    promise.fulfil(with: value)
                    if timed.peek()?.value == value { followed.increment() } else { wrong.increment() }
                case 1:
                    // Never resolved before its deadline, on a clock of its own.
                    let clock = DeadlineClock.manual()
                    let timed = promise.future.timeout(after: .milliseconds(1), clock: clock)
                    timed.whenResolved { _ in resolvedOnce.increment() }
                    clock.advance(by: .milliseconds(1))
                    if timeoutError(timed.wait()) != nil { expired.increment() } else { wrong.increment() }
                    promise.fulfil(with: value)
                default:
                    // Racing its deadline on the real timer thread: either answer is right, but
                    // exactly one.
                    let timed = promise.future.timeout(after: .microseconds(50))
                    // The timer thread may still be running the callback when the wait returns.
                    let ran = DispatchSemaphore(value: 0)
                    timed.whenResolved { _ in
                        resolvedOnce.increment()
                        ran.signal()
                    }
                    promise.fulfil(with: value)
                    let outcome = timed.wait()
                    ran.wait()
                    if outcome.value == value {
                        raceFollowed.increment()
                    } else if timeoutError(outcome) != nil {
                        raceExpired.increment()
                    } else {
                        wrong.increment()
                    }
                }
            }
        }
        let kinds = (0..<perThread).map { $0 % 3 }
        #expect(followed.value == threads * kinds.filter { $0 == 0 }.count)
        #expect(expired.value == threads * kinds.filter { $0 == 1 }.count)
        #expect(raceFollowed.value + raceExpired.value == threads * kinds.filter { $0 == 2 }.count)
        #expect(wrong.value == 0)
        #expect(resolvedOnce.value == threads * perThread)
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    @Test("short-lived futures with long timeouts leave no deadline behind")
    func noPileUp() {
        let before = DeadlineClock.continuous.pendingDeadlineCount
        let threads = 4
        let perThread = scaled(5_000, floor: 200)
        let fulfilled = Counter()
        onThreads(threads) { thread in
            for index in 0..<perThread {
                let promise = Promise<Int>()
                let timed = promise.future.timeout(after: .seconds(3600))
                promise.fulfil(with: index)
                if timed.peek()?.value == index { fulfilled.increment() }
            }
        }
        #expect(fulfilled.value == threads * perThread)
        #expect(DeadlineClock.continuous.pendingDeadlineCount == before)
    }

    // MARK: The scheduler itself

    @Test("an action the timer thread runs 100 ms or more after its deadline is counted and reported as late")
    func lateActionReported() throws {
        let scheduler = DeadlineScheduler()
        defer { scheduler.stop() }
        let before = PetalDiagnostics.count(of: .lateTimer)
        let ran = DispatchSemaphore(value: 0)
        // A deadline a second in the past: the thread runs it a second late, with no waiting here.
        try scheduler.schedule(DeadlineEntry(deadline: .now - .seconds(1)) { ran.signal() })
        ran.wait()
        // At least: the shared timer of other suites may run late too on a loaded machine.
        #expect(PetalDiagnostics.count(of: .lateTimer) >= before + 1)
    }

    @Test("an instant built from a reading in nanoseconds is what ContinuousClock read at that moment")
    func instantFromNanoseconds() {
        // Linux and Darwin store an instant as the Duration since the clock's origin: a hedged
        // call's one reading then serves its deadline and its timer (else each reads again).
        #expect(DeadlineScheduler.instantsAreRealNanoseconds)
        let scheduler = DeadlineScheduler()
        defer { scheduler.stop() }
        for _ in 0..<scaled(1_000) {
            let before = ContinuousClock.now
            let built = scheduler.instant(atNanoseconds: scheduler.nanosecondsNow)
            let after = ContinuousClock.now
            #expect(before <= built && built <= after)
            // Readings in nanoseconds differ as their instants do.
            let later = scheduler.instant(atNanoseconds: scheduler.nanosecondsNow + 1_500)
            #expect(later >= built.advanced(by: .nanoseconds(1_500)))
        }
    }

    @Test("a manual scheduler's instant of a reading is its start plus the nanoseconds read")
    func manualInstantFromNanoseconds() {
        let start = ContinuousClock.now
        let scheduler = DeadlineScheduler(manualStartingAt: start)
        #expect(scheduler.instant(atNanoseconds: scheduler.nanosecondsNow) == start)
        scheduler.advance(to: start.advanced(by: .milliseconds(7)))
        #expect(scheduler.nanosecondsNow == 7_000_000)
        #expect(scheduler.instant(atNanoseconds: scheduler.nanosecondsNow) == scheduler.now)
        #expect(scheduler.instant(atNanoseconds: -1) == start.advanced(by: .nanoseconds(-1)))
    }

    @Test("the scheduler runs due deadlines earliest first and never runs a cancelled one")
    func schedulerOrder() throws {
        let scheduler = DeadlineScheduler()
        defer { scheduler.stop() }
        let ran = Recorder<Int>()
        let blocker = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let base = ContinuousClock.now.advanced(by: .seconds(-10))
        // Holds the timer thread inside an action while the heap fills up behind it.
        try scheduler.schedule(
            DeadlineEntry(deadline: base) {
                started.signal()
                blocker.wait()
            })
        started.wait()
        var generator = SystemRandomNumberGenerator()
        let count = scaled(500, floor: 50)
        let offsets = (0..<count).map { _ in Int.random(in: 0..<100, using: &generator) }
        let entries = offsets.enumerated().map { index, offset in
            DeadlineEntry(deadline: base.advanced(by: .milliseconds(offset))) { ran.record(index) }
        }
        for entry in entries { try scheduler.schedule(entry) }
        #expect(scheduler.pendingCount == count)
        // Cancel every third, in random order: each cancel takes its own entry, once.
        let cancelled = Set(stride(from: 0, to: count, by: 3))
        for index in cancelled.shuffled() {
            #expect(scheduler.cancel(entries[index]))
            #expect(!scheduler.cancel(entries[index]))
        }
        #expect(scheduler.pendingCount == count - cancelled.count)
        let last = DispatchSemaphore(value: 0)
        try scheduler.schedule(DeadlineEntry(deadline: base.advanced(by: .seconds(1))) { last.signal() })
        blocker.signal()
        last.wait()
        // Equal deadlines keep their scheduling order.
        let expected = (0..<count).filter { !cancelled.contains($0) }.sorted { (offsets[$0], $0) < (offsets[$1], $1) }
        #expect(ran.events == expected)
        #expect(scheduler.pendingCount == 0)
        #expect(!scheduler.cancel(entries[1]))
    }
}

extension TimeoutTests {
    /// A thread starter that fails its first `failures` calls with EAGAIN (the thread limit),
    /// then starts threads.
    final class FlakyThreadStarter: Sendable {
        let calls = Counter()
        let failures: Int

        init(failures: Int) { self.failures = failures }

        func start(_ body: @escaping @Sendable () -> Void) -> Int32 {
            calls.increment()
            return calls.value <= failures ? EAGAIN : startDetachedThread(body)
        }
    }

    @Test(
        "when the timer thread cannot start, a timeout is rejected with TimerUnavailableError; the next one tries again"
    )
    func timerThreadUnavailable() {
        let starter = FlakyThreadStarter(failures: 1)
        let scheduler = DeadlineScheduler(startThread: starter.start)
        defer { scheduler.stop() }
        let promise = Promise<Int>()
        let refused = promise.future.timeout(after: .seconds(600), clock: DeadlineClock(scheduler: scheduler))
        #expect((refused.peek()?.error as? TimerUnavailableError)?.code == EAGAIN)
        #expect(scheduler.pendingCount == 0)
        // The next timeout starts the thread, and fires.
        let kept = promise.future.timeout(after: .milliseconds(1), clock: DeadlineClock(scheduler: scheduler))
        #expect(timeoutError(kept.wait()) != nil)
        #expect(starter.calls.value == 2)
        promise.fulfil(with: 1)
        #expect(refused.peek()?.error is TimerUnavailableError)  // decided once, for good
    }
}

extension TimeoutTests {
    @Test("a timeout refused for want of a timer thread gives up on the receiver's work, as an expiry does")
    func refusedTimeoutVotes() {
        let starter = FlakyThreadStarter(failures: 1)
        let scheduler = DeadlineScheduler(startThread: starter.start)
        defer { scheduler.stop() }
        let asked = Counter()
        let promise = Promise<Int>()
        promise.cancelWhenRequested { asked.increment() }
        let refused = promise.future.timeout(after: .seconds(600), clock: DeadlineClock(scheduler: scheduler))
        #expect(refused.peek()?.error is TimerUnavailableError)
        #expect(asked.value == 1)
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(scheduler.pendingCount == 0)
    }
}

extension TimeoutTests {
    @Test("after fork, the child starts a timer thread of its own for the deadlines it inherited")
    func timerRestartsInForkedChild() throws {
        let starter = FlakyThreadStarter(failures: 0)
        let scheduler = DeadlineScheduler(startThread: starter.start)
        defer { scheduler.stop() }
        try scheduler.schedule(DeadlineEntry(deadline: .now + .seconds(600)) {})
        #expect(starter.calls.value == 1)
        // The parent's side of a fork changes nothing.
        scheduler.prepareForFork()
        scheduler.resumeInParentAfterFork()
        #expect(starter.calls.value == 1)
        // The child's side: its copy of the heap has a pending deadline and no thread.
        scheduler.prepareForFork()
        scheduler.restartInChildAfterFork()
        #expect(starter.calls.value == 2)
        #expect(scheduler.pendingCount == 1)
        // And the thread it started runs deadlines.
        let fired = DispatchSemaphore(value: 0)
        try scheduler.schedule(DeadlineEntry(deadline: .now) { fired.signal() })
        fired.wait()
        #expect(starter.calls.value == 2)
    }
}
