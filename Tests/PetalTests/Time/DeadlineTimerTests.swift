import Foundation
import Petal
import Testing

/// A timer whose deadlines fire when a test says so: it records what it is handed, and which of
/// its deadlines were cancelled.
private final class HandTimer: DeadlineTimer, @unchecked Sendable {
    // @unchecked: `armed` is only touched with `lock` held.
    struct Armed {
        let deadline: ContinuousClock.Instant
        let expiry: @Sendable () -> Void
        var cancelled: Bool
    }

    private let lock = NSLock()
    private var armed: [Armed] = []
    /// Set by a test: the next `schedule` throws it.
    private let refusal: TimerUnavailableError?

    init(refusing refusal: TimerUnavailableError? = nil) {
        self.refusal = refusal
    }

    func schedule(
        at deadline: ContinuousClock.Instant, _ expiry: @escaping @Sendable () -> Void
    ) throws(TimerUnavailableError) -> DeadlineTimerCancellation {
        if let refusal { throw refusal }
        let index = lock.withLock {
            armed.append(Armed(deadline: deadline, expiry: expiry, cancelled: false))
            return armed.count - 1
        }
        return { [self] in lock.withLock { armed[index].cancelled = true } }
    }

    /// What the timer was handed, in order.
    var handed: [Armed] { lock.withLock { armed.map { $0 } } }

    /// Fires deadline `index`, as the timer would at its instant (whether or not it was cancelled:
    /// a timer may fire a deadline whose cancellation is on its way).
    func fire(_ index: Int) {
        let expiry = lock.withLock { armed[index].expiry }
        expiry()
    }
}

/// A clock whose deadlines a timer of the caller's keeps (`DeadlineClock(timer:)`, what PetalNIO's
/// event-loop clock is built on): deadlines handed over and taken back exactly once, the one-shot
/// between the timer and the work kept, real time shared with `.continuous`.
@Suite("Time: a clock on a timer of the caller's")
struct DeadlineTimerTests {
    @Test("a timeout hands its deadline to the timer, and its expiry rejects the timeout on the timer's thread")
    func expiryRejects() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promise = Promise<Int>()
        let before = ContinuousClock.now
        let timed = promise.future.timeout(after: .seconds(60), clock: clock)
        #expect(timer.handed.count == 1)
        #expect(timer.handed[0].deadline >= before + .seconds(60))
        #expect(clock.pendingDeadlineCount == 1)
        #expect(!clock.isManual)
        #expect(timed.peek() == nil)
        timer.fire(0)
        #expect(timedOut(timed.peek())?.duration == .seconds(60))
        #expect(clock.pendingDeadlineCount == 0)
        // The timeout's answer stands; the receiver may still resolve.
        #expect(promise.fulfil(with: 1))
        #expect(timedOut(timed.peek()) != nil)
        #expect(!timer.handed[0].cancelled)
    }

    @Test("work done in time takes its deadline off the timer once, and a late expiry does nothing")
    func resolvedInTime() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promise = Promise<String>()
        let timed = promise.future.timeout(after: .seconds(60), clock: clock)
        promise.fulfil(with: "done")
        #expect(timed.peek()?.value == "done")
        #expect(timer.handed.map(\.cancelled) == [true])
        #expect(clock.pendingDeadlineCount == 0)
        // A timer that fires anyway (its cancellation raced with its expiry) changes nothing.
        timer.fire(0)
        #expect(timed.peek()?.value == "done")
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a request on the timeout's future cancels it and takes the deadline off the timer")
    func cancellationRequest() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promise = Promise<Int>()
        let stopped = Counter()
        promise.cancelWhenRequested { stopped.increment() }
        let timed = promise.future.timeout(after: .seconds(60), clock: clock)
        timed.requestCancellation()
        #expect(timed.peek()?.isCancelled == true)
        #expect(stopped.value == 1)
        #expect(timer.handed.map(\.cancelled) == [true])
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a timer that does not take the deadline rejects the timeout at once with its error")
    func refused() {
        let refusal = TimerUnavailableError(code: ESHUTDOWN, reason: "the loop has shut down")
        let clock = DeadlineClock(timer: HandTimer(refusing: refusal))
        let promise = Promise<Int>()
        let timed = promise.future.timeout(after: .seconds(1), clock: clock)
        defer { promise.fulfil(with: 0) }
        guard case .rejected(let error)? = timed.peek(), let unavailable = error as? TimerUnavailableError else {
            Issue.record("expected a TimerUnavailableError, got \(String(describing: timed.peek()))")
            return
        }
        #expect(unavailable.code == ESHUTDOWN)
        #expect(unavailable.reason == "the loop has shut down")
        #expect("\(unavailable)".contains("the loop has shut down"))
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a request's deadline on real time is honoured by a timeout on a timer's clock, a manual one's is not")
    func sharesRealTime() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let request = Deadline(after: .seconds(5))
        // Kept: a promise dropped unresolved would cancel its future before the timeout saw it.
        let promise = Promise<Int>()
        let timed = Deadline.withValue(request) {
            promise.future.timeout(after: .seconds(3600), clock: clock)
        }
        #expect(timer.handed.map(\.deadline) == [request.instant])
        timer.fire(0)
        #expect(timedOut(timed.peek())?.deadline == request.instant)
        // The other way round: a deadline made on the timer's clock bounds a timeout on `.continuous`.
        let onTimer = Deadline(after: .seconds(5), clock: clock)
        #expect(onTimer.earlier(of: Deadline(after: .seconds(10))).instant == onTimer.instant)
        #expect(Deadline(after: .seconds(10)).earlier(of: onTimer).instant == onTimer.instant)
        // A manual clock keeps a time of its own: its deadline is ignored here.
        let manual = DeadlineClock.manual()
        let ignored = Deadline.withValue(Deadline(after: .seconds(1), clock: manual)) {
            promise.future.timeout(after: .seconds(60), clock: clock)
        }
        #expect(timer.handed.count == 2)
        #expect(timer.handed[1].deadline > ContinuousClock.now + .seconds(59))
        promise.fulfil(with: 1)
        #expect(ignored.peek()?.value == 1)
        #expect(timer.handed.map(\.cancelled) == [false, true])
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a hedge's delay is kept by the timer: the second copy starts when it expires")
    func hedgeDelay() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let first = Promise<Int>()
        let second = Promise<Int>()
        let started = Counter()
        let call = Future.hedging(
            HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: RetryBudget(share: 1, burst: 10)), clock: clock
        ) {
            started.increment()
            return started.value == 1 ? first.future : second.future
        }
        #expect(started.value == 1)
        #expect(timer.handed.count == 1)
        timer.fire(0)
        #expect(started.value == 2)
        second.fulfil(with: 2)
        #expect(call.peek()?.value == 2)
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test(
        "work and expiry racing on many threads: each timeout decided once, nothing left on the timer",
        .timeLimit(.minutes(2)))
    func raceWithExpiry() {
        let rounds = 200
        let perRound = 64
        for _ in 0..<rounds {
            let timer = HandTimer()
            let clock = DeadlineClock(timer: timer)
            let promises = (0..<perRound).map { _ in Promise<Int>() }
            let decided = Counter()
            let timedOutCount = Counter()
            let timeouts = promises.map { promise in
                let timed = promise.future.timeout(after: .seconds(60), clock: clock)
                timed.whenResolved { outcome in
                    decided.increment()
                    if timedOut(outcome) != nil { timedOutCount.increment() }
                }
                return timed
            }
            // Thread 0 fires every deadline, thread 1 fulfils every promise, in opposite orders.
            onThreads(2) { thread in
                if thread == 0 {
                    for index in (0..<perRound).reversed() { timer.fire(index) }
                } else {
                    for promise in promises { promise.fulfil(with: 1) }
                }
            }
            #expect(decided.value == perRound)
            let fulfilled = timeouts.filter { $0.peek()?.value == 1 }.count
            #expect(fulfilled + timedOutCount.value == perRound)
            // Every deadline the work won was taken off the timer; none the expiry won was.
            #expect(timer.handed.filter(\.cancelled).count == fulfilled)
            #expect(clock.pendingDeadlineCount == 0)
        }
    }
}
