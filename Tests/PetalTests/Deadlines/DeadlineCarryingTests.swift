import Petal
import Testing

/// A deadline bound where a callback is handed to Petal is the one current where it runs,
/// whatever thread runs it, and a binding nests by shortening.
@Suite("Deadlines: carried with callbacks")
struct DeadlineCarryingTests {
    @Test("a chained closure and an observer see the deadline bound where they were handed over")
    func carriedToCallbacks() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(20), clock: clock)
        let promise = Promise<Int>()
        let seenInStep = Box<ContinuousClock.Instant?>(nil)
        let seenInObserver = Box<ContinuousClock.Instant?>(nil)
        Deadline.withValue(deadline) {
            _ = promise.future.then { value -> Int in
                seenInStep.value = Deadline.current?.instant
                return value
            }
            promise.future.whenFulfilled { _ in seenInObserver.value = Deadline.current?.instant }
        }
        #expect(Deadline.current == nil)
        // Resolved outside the binding: the callbacks run with what they captured.
        #expect(promise.fulfil(with: 1))
        #expect(seenInStep.value == deadline.instant)
        #expect(seenInObserver.value == deadline.instant)
    }

    @Test("an inner binding keeps the earlier deadline: a callee shortens, never extends")
    func nestingShortens() {
        let clock = DeadlineClock.manual()
        let outer = Deadline(after: .milliseconds(20), clock: clock)
        let later = Deadline(after: .milliseconds(50), clock: clock)
        let sooner = Deadline(after: .milliseconds(5), clock: clock)
        Deadline.withValue(outer) {
            Deadline.withValue(later) { #expect(Deadline.current?.instant == outer.instant) }
            Deadline.withValue(sooner) { #expect(Deadline.current?.instant == sooner.instant) }
            Deadline.withoutValue { #expect(Deadline.current == nil) }
        }
    }

    @Test("work handed over inside withoutValue runs with no deadline where a thread with one runs it")
    func withoutValueIsCarried() {
        let clock = DeadlineClock.manual()
        let promise = Promise<Int>()
        let seen = Box<Bool?>(nil)
        Deadline.withoutValue {
            promise.future.whenFulfilled { _ in seen.value = Deadline.current == nil }
        }
        Deadline.withValue(Deadline(after: .milliseconds(20), clock: clock)) {
            #expect(promise.fulfil(with: 1))
        }
        #expect(seen.value == true)
    }
}

/// A value the callbacks of one test write and the test reads after they ran inline.
private final class Box<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
