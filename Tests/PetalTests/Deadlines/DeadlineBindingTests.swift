import Petal
import Testing

/// How a synchronous binding (held on the thread) and an `async` one (held by the task) meet,
/// and how a carried callback's binding gives way to what was bound before it.
@Suite("Deadlines: synchronous and task bindings")
struct DeadlineBindingTests {
    @Test("a synchronous binding inside an async one is current, as the earlier of the two")
    func synchronousInsideAsync() async {
        let clock = DeadlineClock.manual()
        let outer = Deadline(after: .milliseconds(20), clock: clock)
        let sooner = Deadline(after: .milliseconds(5), clock: clock)
        let later = Deadline(after: .milliseconds(50), clock: clock)
        await Deadline.withValue(outer) {
            // A suspension first: the async binding, held by the task, is the one in force.
            await Task.yield()
            Deadline.withValue(sooner) { #expect(Deadline.current?.instant == sooner.instant) }
            Deadline.withValue(later) { #expect(Deadline.current?.instant == outer.instant) }
            Deadline.withoutValue { #expect(Deadline.current == nil) }
            #expect(Deadline.current?.instant == outer.instant)
        }
        #expect(Deadline.current == nil)
    }

    @Test("a callback run inside another request's binding sees its own deadline, and the binding is back after it")
    func callbackInsideAnotherBinding() {
        let clock = DeadlineClock.manual()
        let mine = Deadline(after: .milliseconds(50), clock: clock)
        let theirs = Deadline(after: .milliseconds(5), clock: clock)
        let promise = Promise<Int>()
        let seen = Slot<ContinuousClock.Instant?>(nil)
        Deadline.withValue(mine) {
            promise.future.whenFulfilled { _ in seen.value = Deadline.current?.instant }
        }
        Deadline.withValue(theirs) {
            #expect(promise.fulfil(with: 1))
            #expect(Deadline.current?.instant == theirs.instant)
        }
        // Later than `theirs`, and seen all the same: a carried deadline is not shortened.
        #expect(seen.value == mine.instant)
        #expect(Deadline.current == nil)
    }

    @Test("callbacks resolving one another run nested, each with its own deadline, each restored on exit")
    func nestedRuns() {
        let clock = DeadlineClock.manual()
        let first = Deadline(after: .milliseconds(10), clock: clock)
        let second = Deadline(after: .milliseconds(20), clock: clock)
        let outer = Promise<Int>()
        let inner = Promise<Int>()
        let seen = Slot<[ContinuousClock.Instant?]>([])
        Deadline.withValue(second) {
            inner.future.whenFulfilled { _ in seen.value.append(Deadline.current?.instant) }
        }
        Deadline.withValue(first) {
            outer.future.whenFulfilled { _ in
                seen.value.append(Deadline.current?.instant)
                inner.fulfil(with: 2)
                seen.value.append(Deadline.current?.instant)
            }
        }
        #expect(outer.fulfil(with: 1))
        #expect(seen.value == [first.instant, second.instant, first.instant])
        #expect(Deadline.current == nil)
    }

    @Test("a binding whose operation throws is undone before the error reaches the caller")
    func restoredWhenThrowing() {
        struct Failure: Error {}
        let clock = DeadlineClock.manual()
        let outer = Deadline(after: .milliseconds(20), clock: clock)
        let inner = Deadline(after: .milliseconds(5), clock: clock)
        Deadline.withValue(outer) {
            #expect(throws: Failure.self) {
                try Deadline.withValue(inner) { throw Failure() }
            }
            #expect(throws: Failure.self) {
                try Deadline.withoutValue { throw Failure() }
            }
            #expect(Deadline.current?.instant == outer.instant)
        }
        #expect(Deadline.current == nil)
    }

    @Test("a Task created inside a synchronous binding does not inherit it; one inside an async binding does")
    func tasksInheritOnlyTaskBindings() async {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let fromThread = Deadline.withValue(deadline) { Task { Deadline.current?.instant } }
        #expect(await fromThread.value == nil)
        let fromTask = await Deadline.withValue(deadline) {
            await Task.yield()
            return Task { Deadline.current?.instant }
        }
        #expect(await fromTask.value == deadline.instant)
    }
}
