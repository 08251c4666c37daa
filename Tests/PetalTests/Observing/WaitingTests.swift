import Petal
import Testing

@Suite("Peeking and waiting")
struct WaitingTests {
    @Test("waiting on a resolved future returns its outcome at once")
    func waitOnResolved() {
        #expect(Future<Int>.fulfilled(with: 1).wait().value == 1)
        #expect(Future<Int>.rejected(with: TestError(2)).wait().error as? TestError == TestError(2))
        #expect(Future<Int>.fulfilled(with: 3).wait(timeout: .zero)?.value == 3)
    }

    @Test("waiting blocks until another thread resolves, and keeps errors", arguments: [false, true])
    func waitForAnotherThread(reject: Bool) {
        for round in 0..<scaled(50) {
            let promise = Promise<Int>()
            let group = DispatchGroupBox()
            group.run {
                if reject { promise.reject(with: TestError(round)) } else { promise.fulfil(with: round) }
            }
            let outcome = promise.future.wait()
            group.wait()
            if reject {
                #expect(outcome.error as? TestError == TestError(round))
            } else {
                #expect(outcome.value == round)
            }
        }
    }

    @Test("a timed wait on a pending future returns nil, and the future still resolves later")
    func timedWaitTimesOut() {
        let promise = Promise<Int>()
        #expect(promise.future.wait(timeout: .milliseconds(5)) == nil)
        #expect(promise.future.wait(timeout: .zero) == nil)
        #expect(!promise.isResolved)
        promise.fulfil(with: 8)
        #expect(promise.future.wait(timeout: .milliseconds(5))?.value == 8)
        #expect(promise.future.wait().value == 8)
    }

    @Test("a timed wait returns the outcome when another thread resolves in time")
    func timedWaitSucceeds() {
        let promise = Promise<Int>()
        let group = DispatchGroupBox()
        group.run { promise.fulfil(with: 4) }
        #expect(promise.future.wait(timeout: .seconds(600))?.value == 4)
        group.wait()
    }

    @Test("peek never blocks and reports each state")
    func peek() {
        let promise = Promise<Int>()
        #expect(promise.future.peek() == nil)
        promise.cancel(withIndirectError: TestError(6))
        #expect(promise.future.peek()?.isCancelled == true)
        #expect(promise.future.peek()?.error as? TestError == TestError(6))
    }
}
