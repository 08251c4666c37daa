import Petal
import Testing

/// When an outcome may be read. A resolution that finds callbacks waiting takes them in its
/// claim, before it writes the outcome, and publishes the outcome with a store after it: a
/// reader that saw the word change but not that store must still see a pending future.
@Suite("Outcome visibility")
struct OutcomeVisibilityTests {
    @Test("readers racing a resolution with subscribers see the winner's whole outcome or none")
    func readersRacingAResolutionWithSubscribers() {
        let rounds = scaled(500)
        let readers = 3
        for round in 0..<rounds {
            let promise = Promise<[String]>()
            let future = promise.future
            let delivered = Counter()
            // Waiters, so that the claim takes them: the inline slot and a block.
            for _ in 0..<3 { future.whenFulfilled { _ in delivered.increment() } }
            // A value on the heap: a read of an outcome not yet written would not be it.
            let value = ["round", String(round), String(repeating: "x", count: round % 64)]
            let wrong = Counter()
            let seen = Counter()
            onThreads(readers + 1) { index in
                if index == readers {
                    promise.fulfil(with: value)
                    return
                }
                while true {
                    let resolved = future.isResolved
                    if let outcome = future.peek() {
                        if outcome.value != value { wrong.increment() }
                        seen.increment()
                        return
                    }
                    // isResolved said so before peek looked: peek must have found it too.
                    if resolved { wrong.increment() }
                }
            }
            #expect(wrong.value == 0)
            #expect(seen.value == readers)
            #expect(delivered.value == 3)
        }
    }

    @Test("a callback sees the future it runs for resolved, with its outcome, and later ones run after it")
    func callbacksSeeTheirFutureResolved() {
        let promise = Promise<Int>()
        let future = promise.future
        let order = Recorder<String>()
        for index in 0..<9 {
            future.whenFulfilled { value in
                order.record("\(index): \(value) \(future.isResolved) \(String(describing: future.peek()?.value))")
                if index == 0 {
                    // Subscribed during the delivery: runs after every callback before it.
                    future.whenFulfilled { _ in order.record("late: \(future.isResolved)") }
                }
            }
        }
        #expect(!future.isResolved && future.peek() == nil)
        promise.fulfil(with: 7)
        #expect(order.events == (0..<9).map { "\($0): 7 true Optional(7)" } + ["late: true"])
        #expect(future.isResolved && future.peek()?.value == 7)
    }
}
