import CPetal
import Dispatch
import Foundation
import Petal
import Testing

/// A context that holds work until the test runs it.
final class ManualContext: ExecutionContext, @unchecked Sendable {
    // @unchecked: the queue is guarded by the lock.
    private let lock = NSLock()
    private var queue: [@Sendable () -> Void] = []

    func execute(_ work: @escaping @Sendable () -> Void) {
        lock.withLock { queue.append(work) }
    }

    /// Runs everything queued so far, in order; returns how many ran.
    @discardableResult
    func runAll() -> Int {
        let work = lock.withLock {
            defer { queue.removeAll() }
            return queue
        }
        work.forEach { $0() }
        return work.count
    }

    /// Releases everything queued so far without running it, as a context that shuts down does.
    func dropAll() {
        // Taken out under the lock, released after it: what a drop sets off may queue more.
        var work = lock.withLock {
            defer { queue.removeAll() }
            return queue
        }
        work.removeAll()
    }
}

/// The calling thread's identity.
private func currentThreadID() -> UInt { UInt(pthread_self()) }

@Suite("Execution contexts")
struct ExecutionContextTests {
    @Test("inline callbacks run on the thread that resolves")
    func inlineRunsOnResolvingThread() {
        let promise = Promise<Int>()
        let threads = Recorder<UInt>()
        promise.future.whenFulfilled { _ in threads.record(currentThreadID()) }
        promise.future.whenResolved { _ in threads.record(currentThreadID()) }
        let resolver = Recorder<UInt>()
        onThreads(1) { _ in
            resolver.record(currentThreadID())
            promise.fulfil(with: 1)
        }
        #expect(threads.events.count == 2)
        #expect(Set(threads.events) == Set(resolver.events))
    }

    @Test("a DispatchQueue context runs the callback on that queue")
    func dispatchQueueContext() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "petal.tests.context")
        queue.setSpecific(key: key, value: "mine")
        let promise = Promise<Int>()
        let ran = DispatchSemaphore(value: 0)
        let seen = Recorder<String>()
        promise.future.whenFulfilled(on: queue) { value in
            seen.record("\(value) on \(DispatchQueue.getSpecific(key: key) ?? "elsewhere")")
            ran.signal()
        }
        promise.fulfil(with: 5)
        ran.wait()
        #expect(seen.events == ["5 on mine"])
    }

    @Test("a custom context receives the callback and decides when it runs")
    func customContext() {
        let context = ManualContext()
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        promise.future.whenFulfilled(on: context) { seen.record("fulfilled \($0)") }
        promise.future.whenRejected(on: context) { _ in seen.record("rejected") }
        promise.fulfil(with: 9)
        #expect(seen.events.isEmpty)
        #expect(context.runAll() == 2)
        #expect(seen.events == ["fulfilled 9"])
        // After resolution, the context still decides.
        promise.future.whenResolved(on: context) { _ in seen.record("late") }
        #expect(seen.events == ["fulfilled 9"])
        context.runAll()
        #expect(seen.events == ["fulfilled 9", "late"])
    }

    @Test("callbacks on different contexts keep their order within each context")
    func orderWithinAContext() {
        let context = ManualContext()
        let promise = Promise<Int>()
        let order = Recorder<Int>()
        for index in 0..<10 {
            if index.isMultiple(of: 2) {
                promise.future.whenFulfilled(on: context) { _ in order.record(index) }
            } else {
                promise.future.whenFulfilled { _ in order.record(index) }
            }
        }
        promise.fulfil(with: 0)
        #expect(order.events == [1, 3, 5, 7, 9])
        context.runAll()
        #expect(order.events == [1, 3, 5, 7, 9, 0, 2, 4, 6, 8])
    }

    @Test("deeply nested inline callbacks are deferred to the outermost frame, on the same thread")
    func nestedInlineCallbacksStayOnTheThread() {
        let count = 200
        let promises = (0..<count).map { _ in Promise<Int>() }
        let depths = Recorder<UInt32>()
        let threads = Recorder<UInt>()
        for index in 0..<(count - 1) {
            let next = promises[index + 1]
            promises[index].future.whenFulfilled { value in
                depths.record(petal_trampoline_depth())
                threads.record(currentThreadID())
                next.fulfil(with: value + 1)
            }
        }
        let outer = currentThreadID()
        promises[0].fulfil(with: 0)
        // Everything ran before the outermost fulfil returned.
        #expect(promises[count - 1].future.peek()?.value == count - 1)
        #expect(depths.events.count == count - 1)
        #expect(depths.events.allSatisfy { $0 >= 1 && $0 <= UInt32(PETAL_TRAMPOLINE_DEPTH) })
        #expect(depths.events.max() == UInt32(PETAL_TRAMPOLINE_DEPTH))
        #expect(Set(threads.events) == [outer])
        #expect(petal_trampoline_depth() == 0)
    }

    @Test("the inline context's execute runs work now, through the trampoline")
    func inlineExecute() {
        let ran = Recorder<UInt32>()
        InlineExecutionContext().execute { ran.record(petal_trampoline_depth()) }
        #expect(ran.events == [1])
    }
}
