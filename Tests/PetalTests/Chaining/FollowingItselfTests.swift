import Dispatch
import Testing

@testable import Petal

/// A closure that returns the very future its step made would leave that future waiting for
/// itself for ever: it is rejected at once, with an error naming the method, and reported.
@Suite("Chaining: a step that returns its own future is rejected, not left pending")
struct FollowingItselfTests {
    /// Whether `future` was rejected with the error for `method`.
    private func rejectedAsFollowingItself<Value>(_ future: Future<Value>, method: String) -> Bool {
        (future.peek()?.error as? FollowingItselfError) == FollowingItselfError(method: method)
    }

    @Test("then: rejected with FollowingItselfError, reported as an adjusted argument")
    func thenReturnsItself() {
        let start = adjustedArguments.events.count
        let head = Promise<Int>()
        let made = Recorder<Future<Int>>()
        let step = head.future.then { _ in made.events[0] }
        made.record(step)
        head.fulfil(with: 1)
        #expect(rejectedAsFollowingItself(step, method: "Future.then(on:_:)"))
        #expect(adjustmentReported("Future.then(on:_:)", given: "its own future", since: start))
        #expect(
            "\(FollowingItselfError(method: "Future.then(on:_:)"))"
                == "the closure of Future.then(on:_:) returned the future Future.then(on:_:) made, "
                + "which would wait for itself for ever")
    }

    @Test("recover: rejected with FollowingItselfError")
    func recoverReturnsItself() {
        let head = Promise<Int>()
        let made = Recorder<Future<Int>>()
        let step = head.future.recover { _ in made.events[0] }
        made.record(step)
        head.reject(with: TestError(1))
        #expect(rejectedAsFollowingItself(step, method: "Future.recover(on:includingIndirectErrors:using:)"))
    }

    @Test("flattened: a future fulfilled with its own flattening is rejected")
    func flattenedFollowsItself() {
        let outer = Promise<Future<Int>>()
        let flat = outer.future.flattened()
        outer.fulfil(with: flat)
        #expect(rejectedAsFollowingItself(flat, method: "Future.flattened()"))
    }

    @Test("startFollowing: a closure that returns the started future is rejected")
    func startFollowingReturnsItself() {
        let queue = DispatchQueue(label: "start")
        let made = Recorder<Future<Int>>()
        let gate = DispatchSemaphore(value: 0)
        let started = Future<Int>.startFollowing(on: queue) {
            gate.wait()
            return made.events[0]
        }
        made.record(started)
        gate.signal()
        queue.sync {}
        #expect(rejectedAsFollowingItself(started, method: "Future.startFollowing(on:executing:)"))
    }

    @Test("a step whose closure returns another future is not mistaken for one following itself")
    func anotherFutureFollows() {
        let step = Future.fulfilled(with: 1).then { Future.fulfilled(with: $0 + 1) }
        #expect(describe(step.peek()) == "fulfilled(2)")
    }

    // Ported from PromiseKit's ZalgoTests.test3: "returning a pending promise from its own
    // zalgo'd then handler doesn't hang". PromiseKit rejects it with its `returnedSelf` error.
    @Test("PromiseKit: a pending future returned from its own inline then handler does not hang")
    func promiseKitZalgoTest3() {
        let later = Promise<Void>()
        let handlerRan = DispatchSemaphore(value: 0)
        let caught = DispatchSemaphore(value: 0)
        let made = Recorder<Future<Void>>()
        let p1 = later.future.then(on: .inline) { _ -> Future<Void> in
            handlerRan.signal()
            return made.events[0]
        }
        made.record(p1)
        p1.whenRejected { error in
            if error is FollowingItselfError { caught.signal() }
        }
        DispatchQueue.global().async { later.fulfil(with: ()) }
        #expect(handlerRan.wait(timeout: .now() + 30) == .success)
        #expect(caught.wait(timeout: .now() + 30) == .success)
    }
}
