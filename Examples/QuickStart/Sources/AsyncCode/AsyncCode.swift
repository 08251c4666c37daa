import Dispatch
import Petal

/// Stock that only code isolated to the shelf may touch.
actor Shelf {
    var reserved = 0
}

@main
struct AsyncCode {
    static func main() async throws {
        // Await a future: suspends the task, never a thread.
        let answer = Future.fulfilled(with: 41).then { $0 + 1 }
        print("awaited:", try await answer.value)

        // Completions in the order they come; leaving the loop asks the others to stop.
        let fast = Promise<String>()
        let slow = Promise<String>()
        slow.cancelWhenRequested { print("slow: asked to stop") }
        DispatchQueue.global().async { fast.fulfil(with: "fast") }
        for await completion in Future.completions(of: [slow.future, fast.future]) {
            print("first:", completion.outcome.value ?? "none")
            break
        }

        // A step isolated to an actor: the compiler checks its access to the actor's state.
        let shelf = Shelf()
        let onShelf = ActorExecutionContext(shelf)
        let order = Promise<Int>()
        let reserved = order.future.then(isolatedTo: onShelf) { shelf, quantity in
            shelf.reserved += quantity
            return shelf.reserved
        }
        DispatchQueue.global().async { order.fulfil(with: 3) }
        print("reserved:", try await reserved.value)

        // And on the main actor, with a @MainActor closure.
        let label = reserved.then(isolatedTo: .mainActor) { count in "\(count) on the shelf" }
        print("label:", try await label.value)

        // A fan-out of calls that answer through completion handlers: a slot each, one await.
        let replies = PromiseBatch<Int>(count: 3)
        for index in 0..<3 {
            let slot = replies[index]
            DispatchQueue.global().async { slot.fulfil(with: index * 10) }
        }
        print("fan-out:", try await replies.all.value)
    }
}
