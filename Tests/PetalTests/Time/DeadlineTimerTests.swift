import Foundation
import Petal
import Testing

/// A timer whose wake-ups run when a test says so: it records each wake-up it is asked for.
private final class HandTimer: DeadlineTimer, @unchecked Sendable {
    // @unchecked: `asked` is only touched with `lock` held.
    struct WakeUp {
        let deadline: ContinuousClock.Instant
        let wake: @Sendable () -> Void
    }

    private let lock = NSLock()
    private var asked: [WakeUp] = []
    /// What every `schedule` throws, if set.
    private let refusal: TimerUnavailableError?

    init(refusing refusal: TimerUnavailableError? = nil) {
        self.refusal = refusal
    }

    func schedule(
        at deadline: ContinuousClock.Instant, _ wake: @escaping @Sendable () -> Void
    ) throws(TimerUnavailableError) {
        if let refusal { throw refusal }
        lock.withLock { asked.append(WakeUp(deadline: deadline, wake: wake)) }
    }

    /// The wake-ups asked for, in order.
    var wakeUps: [WakeUp] { lock.withLock { asked.map { $0 } } }

    /// Runs wake-up `index`, as the timer would at its instant.
    func fire(_ index: Int) {
        let wake = lock.withLock { asked[index].wake }
        wake()
    }
}

/// A clock woken by a timer of the caller's (`DeadlineClock(timer:)`, what PetalNIO's event-loop
/// clock is built on): the timer asked only for the earliest deadline, the one-shot between a
/// deadline and its work kept by the clock, real time shared with `.continuous`.
@Suite("Time: a clock on a timer of the caller's")
struct DeadlineTimerTests {
    @Test("a timeout asks the timer to wake the clock at its deadline, and the wake-up rejects it")
    func wakeUpRejects() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promise = Promise<Int>()
        let before = ContinuousClock.now
        let timed = promise.future.timeout(after: .seconds(60), clock: clock)
        #expect(timer.wakeUps.count == 1)
        #expect(timer.wakeUps[0].deadline >= before + .seconds(60))
        #expect(clock.pendingDeadlineCount == 1)
        #expect(!clock.isManual)
        #expect(timed.peek() == nil)
        // The wake-up says its instant has come, by the timer's clock.
        timer.fire(0)
        #expect(timedOut(timed.peek())?.duration == .seconds(60))
        #expect(clock.pendingDeadlineCount == 0)
        // Nothing is left, so no other wake-up is asked for.
        #expect(timer.wakeUps.count == 1)
        // The timeout's answer stands; the receiver may still resolve.
        #expect(promise.fulfil(with: 1))
        #expect(timedOut(timed.peek()) != nil)
    }

    @Test("work done in time takes its deadline out without the timer, and the wake-up then does nothing")
    func resolvedInTime() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promise = Promise<String>()
        let timed = promise.future.timeout(after: .seconds(60), clock: clock)
        promise.fulfil(with: "done")
        #expect(timed.peek()?.value == "done")
        #expect(clock.pendingDeadlineCount == 0)
        timer.fire(0)
        #expect(timed.peek()?.value == "done")
        #expect(timer.wakeUps.count == 1)
    }

    @Test("only a deadline earlier than the wake-up asked for asks for another")
    func onlyTheEarliestAsks() {
        let timer = HandTimer()
        let clock = DeadlineClock(timer: timer)
        let promises = (0..<4).map { _ in Promise<Int>() }
        let later = promises[0].future.timeout(after: .seconds(60), clock: clock)
        let laterStill = promises[1].future.timeout(after: .seconds(90), clock: clock)
        #expect(timer.wakeUps.count == 1)
        let earlier = promises[2].future.timeout(after: .seconds(30), clock: clock)
        #expect(timer.wakeUps.count == 2)
        // The 30 s wake-up: only the 30 s timeout is due; the clock asks for the 60 s one next.
        timer.fire(1)
        #expect(timedOut(earlier.peek()) != nil)
        #expect(later.peek() == nil && laterStill.peek() == nil)
        #expect(timer.wakeUps.count == 2)  // the 60 s wake-up was already asked for
        // The 60 s one's work answers in time: its wake-up finds nothing due and asks for 90 s.
        promises[0].fulfil(with: 1)
        timer.fire(0)
        #expect(later.peek()?.value == 1)
        #expect(timer.wakeUps.count == 3)
        #expect(timer.wakeUps[2].deadline > timer.wakeUps[0].deadline + .seconds(29))
        timer.fire(2)
        #expect(timedOut(laterStill.peek()) != nil)
        #expect(clock.pendingDeadlineCount == 0)
        for promise in promises { promise.fulfil(with: 0) }
    }

    @Test("a request on the timeout's future cancels it and takes its deadline out")
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
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a timer that will not take the wake-up rejects the timeout at once with its error")
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
        #expect(timer.wakeUps.map(\.deadline) == [request.instant])
        timer.fire(0)
        #expect(timedOut(timed.peek())?.deadline == request.instant)
        // The other way round: a deadline made on the timer's clock bounds one on `.continuous`.
        let onTimer = Deadline(after: .seconds(5), clock: clock)
        #expect(onTimer.earlier(of: Deadline(after: .seconds(10))).instant == onTimer.instant)
        #expect(Deadline(after: .seconds(10)).earlier(of: onTimer).instant == onTimer.instant)
        // A manual clock keeps a time of its own: its deadline is ignored here.
        let manual = DeadlineClock.manual()
        let ignored = Deadline.withValue(Deadline(after: .seconds(1), clock: manual)) {
            promise.future.timeout(after: .seconds(60), clock: clock)
        }
        #expect(timer.wakeUps.count == 2)
        #expect(timer.wakeUps[1].deadline > ContinuousClock.now + .seconds(59))
        promise.fulfil(with: 1)
        #expect(ignored.peek()?.value == 1)
        #expect(clock.pendingDeadlineCount == 0)
    }

    @Test("a hedge's delay is kept by the clock: the second copy starts at the wake-up")
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
        #expect(timer.wakeUps.count == 1)
        timer.fire(0)
        #expect(started.value == 2)
        second.fulfil(with: 2)
        #expect(call.peek()?.value == 2)
        #expect(clock.pendingDeadlineCount == 0)
        first.fulfil(with: 1)
    }

    @Test(
        "work and wake-ups racing on two threads: each timeout decided once, nothing left",
        .timeLimit(.minutes(2)))
    func raceWithWakeUps() {
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
            // Thread 0 runs every wake-up asked for, each asking for the next, until none is
            // left; thread 1 fulfils every promise, latest deadline first.
            onThreads(2) { thread in
                if thread == 0 {
                    var next = 0
                    while next < timer.wakeUps.count {
                        timer.fire(next)
                        next += 1
                    }
                } else {
                    for promise in promises.reversed() { promise.fulfil(with: 1) }
                }
            }
            #expect(decided.value == perRound)
            let fulfilled = timeouts.filter { $0.peek()?.value == 1 }.count
            #expect(fulfilled + timedOutCount.value == perRound)
            #expect(clock.pendingDeadlineCount == 0)
        }
    }
}
