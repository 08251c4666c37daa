import CPetal
import Foundation
import Synchronization
import Testing

@testable import Petal

// Observers that a careless or hostile caller writes: timed waits over every class of
// `Duration`, callbacks that wait on the very future they observe, execution contexts that call
// work directly, on a new thread for every item, drop it, keep it and let it go later, or run
// it twice, and tasks that are cancelled before they await.

/// Whether a thread has parked on `future`: the mark a wait sets, under its bucket's lock,
/// before it sleeps, and which stays until the future resolves.
private func hasParkedWaiter<Value>(_ future: Future<Value>) -> Bool {
    petal_word_has_parked(petal_cell_load(future.storage.cell)) != 0
}

/// Waits with `timeout` on a pending future that another thread fulfils with `value` once the
/// wait has parked (or has returned without parking), and returns what the wait returned.
///
/// Why the parked mark rather than a sleep: the fulfilment must come after the wait has looked
/// and found the future pending, or a wait past a century would return at once, unreported.
private func waitWhileAnotherThreadFulfils(timeout: Duration, with value: Int) -> Outcome<Int>? {
    let promise = Promise<Int>()
    let future = promise.future
    let returned = Counter()
    let resolver = DispatchGroupBox()
    resolver.run {
        while !hasParkedWaiter(future) && returned.value == 0 { sched_yield() }
        promise.fulfil(with: value)
    }
    let outcome = future.wait(timeout: timeout)
    returned.increment()
    resolver.wait()
    return outcome
}

/// The lowest stack address a thread reached, from the frames that record it.
private final class StackDepth: @unchecked Sendable {
    // @unchecked: `lowest` is only touched with `lock` held.
    private let lock = NSLock()
    private var lowest = UInt.max

    /// Records how deep the caller's frame is (stacks grow down).
    func record() {
        let address = Self.here()
        lock.withLock { lowest = min(lowest, address) }
    }

    /// How far below `top` the deepest recorded frame was.
    func depth(below top: UInt) -> UInt { lock.withLock { top &- lowest } }

    /// The address of a local of a frame just below the caller's (never inlined, so that the
    /// local lives in memory, on the stack).
    @inline(never)
    static func here() -> UInt {
        var marker = 0
        return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
    }
}

/// Runs work by calling it, at once, on the calling thread: no queue and no trampoline of its
/// own, so nothing of the context keeps nested work off the stack.
private struct DirectContext: ExecutionContext {
    let depth: StackDepth

    func execute(_ work: @escaping @Sendable () -> Void) {
        depth.record()
        work()
    }
}

/// Runs every item on a new thread of its own, which it marks with the item's number (a thread
/// runs one item only, so distinct numbers seen by the work are distinct threads).
private final class ThreadPerItemContext: ExecutionContext {
    /// The key of the item's number in its thread's dictionary.
    static let itemKey = "petal.tests.item"
    private let items = Atomic<Int>(0)

    var started: Int { items.load(ordering: .relaxed) }

    func execute(_ work: @escaping @Sendable () -> Void) {
        let number = items.add(1, ordering: .relaxed).newValue
        Thread {
            Thread.current.threadDictionary[Self.itemKey] = number
            work()
        }.start()
    }

    /// The number of the item the calling thread runs, if it is one of this context's threads.
    static var currentItem: Int? { Thread.current.threadDictionary[itemKey] as? Int }
}

/// Runs the first item, drops the second, and so on: a context that drops only some work.
private final class AlternatingContext: ExecutionContext {
    let received = Counter()

    func execute(_ work: @escaping @Sendable () -> Void) {
        received.increment()
        // Odd items run; even ones are released unrun when this returns.
        if received.value % 2 == 1 { work() }
    }
}

/// Keeps the work it is given, unrun, until ``letGo()`` releases it: a queue torn down with
/// work still in it.
private final class HoardingContext: ExecutionContext, @unchecked Sendable {
    // @unchecked: `held` is only touched with `lock` held.
    private let lock = NSLock()
    private var held: [@Sendable () -> Void] = []

    func execute(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { held.append(work) }
    }

    /// Releases the work held, unrun, and returns how much there was. The release happens
    /// outside the lock: it cancels futures whose steps may hand this context more work.
    func letGo() -> Int {
        let taken = lock.withLock {
            let taken = held
            held = []
            return taken
        }
        return taken.count
    }
}

/// Runs every item twice: a context that breaks its promise to run work once. (An observer's
/// callback handed to it runs twice: Petal passes the callback through as it is.)
private struct TwiceContext: ExecutionContext {
    func execute(_ work: @escaping @Sendable () -> Void) {
        work()
        work()
    }
}

/// Whether `outcome` is a cancellation caused by a dropped work item of a context whose type
/// name contains `context`.
private func isDropped<Value>(_ outcome: Outcome<Value>?, by context: String) -> Bool {
    guard case .cancelled(let error as DroppedWorkError)? = outcome else { return false }
    return error.context.contains(context)
}

// Serialised: the adjustment reports of `Future.wait(timeout:)` are process-wide, and two tests
// here give durations with the same text (one attosecond past a century prints as a century).
@Suite("Observing: hostile callers", .serialized, .timeLimit(.minutes(2)))
struct ObservingHostileCallerTests {
    // MARK: Timed waits over every class of Duration

    @Test(
        "on a resolved future, a timed wait of every class of Duration returns the outcome",
        arguments: Receiver.allCases)
    func resolvedAnyDuration(_ receiver: Receiver) {
        let future = Future<Int>(resolvedWith: receiver.outcome)
        var generator = SeededGenerator(seed: 0x0B5E_0001)
        let durations =
            HostileValues.specialDurations + (0..<1_000).map { _ in HostileValues.duration(using: &generator) }
        let wrong = durations.filter { describe(future.wait(timeout: $0)) != describe(receiver.outcome) }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    @Test("on a pending future, zero and negative durations return nil without parking or subscribing")
    func pendingNonPositive() {
        let promise = Promise<Int>()
        var generator = SeededGenerator(seed: 0x0B5E_0002)
        var durations = HostileValues.specialDurations.filter { $0 <= .zero }
        while durations.count < 1_000 {
            let duration = HostileValues.duration(using: &generator)
            if duration <= .zero { durations.append(duration) }
        }
        let answered = durations.filter { promise.future.wait(timeout: $0) != nil }
        #expect(answered.isEmpty, "\(answered.prefix(5))")
        // Only looked: no waiter was ever parked, nothing subscribed.
        #expect(!hasParkedWaiter(promise.future))
        #expect(!promise.future.storage.hasWaiters)
        promise.fulfil(with: 1)
        #expect(promise.future.wait(timeout: Duration(attoseconds: Int128.min))?.value == 1)
    }

    @Test("on a pending future, positive durations below a millisecond time out with nil and leave nothing")
    func pendingTinyPositive() {
        let promise = Promise<Int>()
        for timeout in [Duration(attoseconds: 1), .nanoseconds(1), .microseconds(1), .milliseconds(1)] {
            #expect(promise.future.wait(timeout: timeout) == nil)
        }
        #expect(!promise.future.storage.hasWaiters)
        promise.fulfil(with: 2)
        #expect(promise.future.wait(timeout: Duration(attoseconds: 1))?.value == 2)
    }

    @Test(
        "a wait past DeadlineClock.longestWait is reported as adjusted and returns the outcome another thread provides")
    func pastACentury() {
        var generator = SeededGenerator(seed: 0x0B5E_0003)
        var durations = HostileValues.specialDurations.filter { $0 > DeadlineClock.longestWait }
        while durations.count < 20 {
            let duration = HostileValues.duration(using: &generator)
            if duration > DeadlineClock.longestWait { durations.append(duration) }
        }
        for (index, timeout) in durations.enumerated() {
            let start = adjustedArguments.events.count
            let outcome = waitWhileAnotherThreadFulfils(timeout: timeout, with: index)
            #expect(outcome?.value == index, "\(timeout)")
            #expect(adjustmentReported("Future.wait(timeout:)", given: "\(timeout)", since: start), "\(timeout)")
        }
        // The used value is the century itself.
        let report = adjustedArguments.events.last { $0.parameter == "Future.wait(timeout:)" }
        #expect(report?.used?.contains("\(DeadlineClock.longestWait)") == true)
    }

    @Test("a wait of exactly DeadlineClock.longestWait, or just under, is kept as given and not reported")
    func aCenturyExactly() {
        for timeout in [DeadlineClock.longestWait, DeadlineClock.longestWait - Duration(attoseconds: 1)] {
            let start = adjustedArguments.events.count
            #expect(waitWhileAnotherThreadFulfils(timeout: timeout, with: 3)?.value == 3)
            #expect(!adjustmentReported("Future.wait(timeout:)", given: "\(timeout)", since: start), "\(timeout)")
        }
    }

    @Test(
        "a pending future waited on with random durations over the whole range: nil for none, the outcome for long ones"
    )
    func pendingRandomDurations() {
        var generator = SeededGenerator(seed: 0x0B5E_0004)
        var wrong: [String] = []
        for index in 0..<scaled(300, floor: 60) {
            let timeout = HostileValues.duration(using: &generator)
            let start = adjustedArguments.events.count
            let outcome = waitWhileAnotherThreadFulfils(timeout: timeout, with: index)
            let expected: Bool
            if timeout <= .zero {
                expected = outcome == nil
            } else if timeout >= .seconds(60) {
                // The resolver fulfils as soon as the wait parks: a long wait must see it.
                expected = outcome?.value == index
            } else {
                // A short wait may time out first; it must not return anything else.
                expected = outcome == nil || outcome?.value == index
            }
            if !expected { wrong.append("\(timeout): \(describe(outcome))") }
            if timeout > DeadlineClock.longestWait
                && !adjustmentReported("Future.wait(timeout:)", given: "\(timeout)", since: start)
            {
                wrong.append("\(timeout): not reported")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }

    // MARK: Waiting from inside

    @Test("a callback that waits on its own future, untimed or timed, returns at once with the outcome")
    func callbackWaitsOnItsOwnFuture() {
        let promise = Promise<Int>()
        let future = promise.future
        let seen = Recorder<String>()
        future.whenResolved { _ in
            seen.record(describe(future.wait()))
            seen.record(describe(future.wait(timeout: .seconds(Int64.max))))
            seen.record(describe(future.wait(timeout: .zero)))
        }
        let step = future.then { value -> Int in
            // Its own receiver is resolved: the wait only looks.
            seen.record("step \(describe(future.wait()))")
            return value + 1
        }
        promise.fulfil(with: 4)
        #expect(seen.events == ["fulfilled(4)", "fulfilled(4)", "fulfilled(4)", "step fulfilled(4)"])
        #expect(step.peek()?.value == 5)
    }

    @Test("a step that waits on the future it is computing, with a short timeout, sees it pending")
    func stepWaitsOnItself() {
        let promise = Promise<Int>()
        let own = Recorder<Future<Int>>()
        let seen = Recorder<String>()
        let step = promise.future.then { value -> Int in
            // Its own result: pending until this returns, so a wait can only time out.
            guard let mine = own.events.first else { return -1 }
            seen.record(describe(mine.wait(timeout: .zero)))
            seen.record(describe(mine.wait(timeout: .milliseconds(1))))
            return value + 1
        }
        own.record(step)
        promise.fulfil(with: 1)
        #expect(seen.events == ["pending", "pending"])
        #expect(step.peek()?.value == 2)
    }

    // MARK: Contexts that misbehave

    @Test(
        "a context that calls work directly runs a chain of 100,000 links without deepening the stack",
        arguments: [false, true])
    func directContextDeepChain(reject: Bool) {
        let links = 100_000
        let depth = StackDepth()
        let context = DirectContext(depth: depth)
        let promise = Promise<Int>()
        let ran = Counter()
        var tail = promise.future
        for _ in 0..<links {
            tail = tail.then(on: context) { value in
                ran.increment()
                return value + 1
            }
        }
        let top = StackDepth.here()
        if reject { promise.reject(with: TestError(9)) } else { promise.fulfil(with: 0) }
        if reject {
            #expect(describe(tail.peek()) == "cancelled(\(TestError(9)))")
            #expect(ran.value == 0)
        } else {
            #expect(tail.peek()?.value == links)
            #expect(ran.value == links)
        }
        // Recursion would need a frame per link (far more than any thread's stack); the
        // trampoline keeps the deepest hop within a small constant of the first.
        #expect(depth.depth(below: top) < 1 << 20)
    }

    @Test("a context that runs every item on a new thread runs each step once, each on its own thread")
    func threadPerItem() {
        let links = 250
        for round in 0..<scaled(4, floor: 2) {
            let wrong = Recorder<String>()
            onThreads(4) { thread in
                let context = ThreadPerItemContext()
                let ranIn = Recorder<Int>()
                let promise = Promise<Int>()
                var tail = promise.future
                for _ in 0..<links {
                    tail = tail.then(on: context) { value in
                        ranIn.record(ThreadPerItemContext.currentItem ?? 0)
                        return value + 1
                    }
                }
                promise.fulfil(with: thread * 1_000)
                let value = tail.wait().value
                // Item 1 is the first step's, and so on: each ran on the thread made for it.
                if value != thread * 1_000 + links || ranIn.events != Array(1...links) || context.started != links {
                    wrong.record("value \(value ?? -1), \(context.started) started, items \(ranIn.events.prefix(5))")
                }
            }
            #expect(wrong.events.isEmpty, "round \(round): \(wrong.events)")
        }
    }

    @Test("a context that drops every other item: the first drop cancels its step with DroppedWorkError, and all below")
    func contextDropsSomeWork() {
        let context = AlternatingContext()
        let promise = Promise<Int>()
        let ran = Counter()
        var steps: [Future<Int>] = []
        var tail = promise.future
        for _ in 0..<10 {
            tail = tail.then(on: context) { value in
                ran.increment()
                return value + 1
            }
            steps.append(tail)
        }
        let callbackRan = Counter()
        promise.future.whenResolved(on: DroppingContext()) { _ in callbackRan.increment() }
        promise.fulfil(with: 0)
        // Item 1 (the first step) runs, item 2 (the second step) is dropped; below it every
        // step is cancelled with that error, whether its own hop ran or was dropped.
        #expect(steps[0].peek()?.value == 1)
        #expect(steps.dropFirst().allSatisfy { isDropped($0.peek(), by: "AlternatingContext") })
        #expect(ran.value == 1)
        #expect(context.received.value == 10)
        // An observer's callback has nothing to resolve: a dropped one simply never runs.
        #expect(callbackRan.value == 0)
    }

    @Test(
        "a context that keeps work and lets it go unrun later, on another thread, wakes the waiters with DroppedWorkError"
    )
    func contextLetsGoLater() {
        let context = HoardingContext()
        let promise = Promise<Int>()
        let tail = promise.future.then(on: context) { $0 + 1 }.then(on: context) { $0 + 1 }.then(on: context) { $0 + 1 }
        let started = Future<Int>.start(on: context) { 1 }
        promise.fulfil(with: 0)
        let seen = Recorder<String>()
        let waiter = DispatchGroupBox()
        waiter.run {
            seen.record(isDropped(tail.wait(), by: "HoardingContext") ? "tail dropped" : describe(tail.peek()))
        }
        // Let go only once the waiter sleeps, from a third thread.
        while !hasParkedWaiter(tail) { sched_yield() }
        let released = Recorder<Int>()
        let releaser = DispatchGroupBox()
        releaser.run {
            // Each release cancels a step, whose successor hands the context its hop: one more.
            var total = 0
            var count = 0
            repeat {
                count = context.letGo()
                total += count
            } while count > 0
            released.record(total)
        }
        releaser.wait()
        waiter.wait()
        #expect(seen.events == ["tail dropped"])
        #expect(isDropped(started.peek(), by: "HoardingContext"))
        #expect(released.events == [4])
    }

    @Test("a context that runs each item twice still runs each step and each started closure once")
    func contextRunsTwice() {
        let promise = Promise<Int>()
        let ran = Counter()
        let step = promise.future.then(on: TwiceContext()) { value in
            ran.increment()
            return value + 1
        }
        let starts = Counter()
        let started = Future<Int>.start(on: TwiceContext()) {
            starts.increment()
            return 7
        }
        promise.fulfil(with: 1)
        #expect(step.peek()?.value == 2)
        #expect(ran.value == 1)
        #expect(started.peek()?.value == 7)
        #expect(starts.value == 1)
    }

    // MARK: Tasks cancelled before they await

    @Test(
        "a task cancelled before it starts: value throws CancellationError for a pending future, gives a resolved one's"
    )
    func awaitFromATaskCancelledBeforeItStarts() async {
        let pending = Promise<Int>()
        let resolved = Future<Int>.fulfilled(with: 3)
        let results = await withTaskGroup(of: String.self) { group in
            // Children added to a cancelled group are cancelled before their first line runs.
            group.cancelAll()
            group.addTask {
                let cancelledAtStart = Task.isCancelled
                do {
                    return "pending: \(try await pending.future.value), cancelled at start: \(cancelledAtStart)"
                } catch {
                    return "pending: \(type(of: error)), cancelled at start: \(cancelledAtStart)"
                }
            }
            group.addTask {
                let cancelledAtStart = Task.isCancelled
                let value = try? await resolved.value
                return "resolved: \(value.map(String.init) ?? "threw"), cancelled at start: \(cancelledAtStart)"
            }
            var all: [String] = []
            for await result in group { all.append(result) }
            return all.sorted()
        }
        #expect(
            results == [
                "pending: CancellationError, cancelled at start: true",
                "resolved: 3, cancelled at start: true",
            ])
        // The cancelled wait left nothing: no subscriber, no parked task.
        #expect(!pending.future.storage.hasWaiters)
        #expect(
            ParkingLot.bucket(for: pending.future.storage.cell).parkedTaskCount(for: pending.future.storage.cell) == 0)
        #expect(!pending.isResolved)
        pending.fulfil(with: 0)
    }

    @Test("a task cancelled before it starts still waits for the outcome, which ignores cancellation")
    func outcomeFromATaskCancelledBeforeItStarts() async {
        let promise = Promise<Int>()
        let future = promise.future
        let result = await withTaskGroup(of: String.self) { group in
            group.cancelAll()
            group.addTask {
                let cancelledAtStart = Task.isCancelled
                return "\(describe(await future.outcome)), cancelled at start: \(cancelledAtStart)"
            }
            // Resolved only once the task has subscribed: the outcome it returns was waited for.
            while !future.storage.hasWaiters { await Task.yield() }
            promise.fulfil(with: 8)
            return await group.next() ?? "no result"
        }
        #expect(result == "fulfilled(8), cancelled at start: true")
    }
}
