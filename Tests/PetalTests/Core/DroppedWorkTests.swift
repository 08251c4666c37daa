import Dispatch
import Testing

@testable import Petal

/// A context that accepts work and lets go of it unrun, as an event loop that shut down does.
struct DroppingContext: ExecutionContext {
    let dropped = Counter()

    func execute(_ work: @escaping @Sendable () -> Void) {
        dropped.increment()
    }
}

/// Work an execution context drops: the future it would have resolved is cancelled with a
/// `DroppedWorkError`, and whatever hangs below it resolves; chains are released iteratively.
@Suite("Work a context drops")
struct DroppedWorkTests {
    /// Whether `outcome` is a cancellation caused by a dropped work item.
    private func isDropped<Value>(_ outcome: Outcome<Value>?) -> Bool {
        guard case .cancelled(let error)? = outcome else { return false }
        return error is DroppedWorkError
    }

    @Test("a step whose context drops its work is cancelled with DroppedWorkError, and so is the chain below")
    func droppedStep() {
        let context = DroppingContext()
        let promise = Promise<Int>()
        let ran = Counter()
        let step = promise.future.then(on: context) { value -> Int in
            ran.increment()
            return value + 1
        }
        var tail = step
        for _ in 0..<100_000 { tail = tail.then { $0 + 1 } }
        promise.fulfil(with: 1)
        #expect(context.dropped.value == 1)
        #expect(ran.value == 0)
        #expect(isDropped(step.peek()))
        #expect(isDropped(tail.peek()))
        let error = step.peek()?.error as? DroppedWorkError
        #expect(error?.context == "DroppingContext")
    }

    @Test("a closure started on a context that drops it is cancelled with DroppedWorkError")
    func droppedStart() {
        let context = DroppingContext()
        let future = Future<Int>.start(on: context) { 1 }
        #expect(context.dropped.value == 1)
        #expect(isDropped(future.peek()))
    }

    @Test("a job whose start a context drops is cancelled, not left enqueued")
    func droppedJobStart() {
        let context = DroppingContext()
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 3, on: context)
        #expect(job.state == .cancelled)
        #expect(job.inputs.events.isEmpty)
        #expect(isDropped(future.peek()))
    }

    @Test("a timeout resolved on a context that drops the resolution is cancelled with DroppedWorkError")
    func droppedTimeoutResolution() {
        let context = DroppingContext()
        let promise = Promise<Int>()
        let limited = promise.future.timeout(after: .seconds(600), on: context)
        promise.fulfil(with: 4)
        #expect(isDropped(limited.peek()))
    }

    @Test("a retry loop whose context drops an attempt is cancelled with DroppedWorkError")
    func droppedRetry() {
        let context = DroppingContext()
        let future = Future<Int>.retrying(attempts: 3, on: context) { .fulfilled(with: 1) }
        #expect(isDropped(future.peek()))
    }

    @Test("work a context runs is not reported as dropped")
    func runWorkIsNotDropped() {
        let promise = Promise<Int>()
        let step = promise.future.then(on: DispatchQueue(label: "runs its work")) { $0 * 2 }
        promise.fulfil(with: 21)
        #expect(step.wait().value == 42)
    }

    @Test("a chain of 300,000 links below a future nobody can resolve is freed without deepening the stack")
    func longUndeliveredChainIsFreedIteratively() {
        weak var last: FutureStorage<Int>?
        do {
            let head = FutureStorage<Int>.makePending()
            var tail = Future(storage: head)
            for _ in 0..<300_000 { tail = tail.then { $0 + 1 } }
            last = tail.storage
            #expect(last != nil)
        }
        // Freed, every link: recursion would have overflowed the stack long before.
        #expect(last == nil)
    }
}
