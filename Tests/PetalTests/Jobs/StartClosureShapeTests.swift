import Dispatch
import Testing

@testable import Petal

/// Every closure shape users write with `Future.start(on:executing:)` and
/// `Future.startFollowing(on:executing:)`, chained and not: this file compiling is most of the
/// test (a `start` overloaded on the closure's result once took a multi-statement closure that
/// returns nothing for the future form: "missing return in closure expected to return
/// 'Future<()>'"); each shape's future is then checked.
@Suite("Jobs: the closure shapes start takes")
struct StartClosureShapeTests {
    final class Flag: @unchecked Sendable {
        // @unchecked: only the closures below that run on the serial queue touch it, one at a
        // time, and the test reads it after waiting for them.
        var ran = 0
    }

    @Test("closures of one or several statements, returning nothing, a value or a future, throwing or not")
    func shapes() {
        let queue = DispatchQueue(label: "petal.tests.shapes")
        let flag = Flag()
        let done = Counter()
        let one = Future<Int>.fulfilled(with: 1)

        // Daisy's most basic use: start work on a queue, then observe it.
        Future.start(on: queue) {
            flag.ran += 1
            flag.ran += 1
        }
        .whenFulfilled { done.increment() }
        let nothing = Future.start(on: queue) { flag.ran += 1 }
        // On this thread: it touches only what no queue's closure does.
        let here = Counter()
        let inline = Future.start {
            here.increment()
            here.increment()
        }
        let value = Future.start(on: queue) { 7 }
        let chained = Future.start { 7 }.then { $0 + 1 }
        let several = Future.start(on: queue) {
            flag.ran += 1
            return 3
        }
        .then { $0 * 2 }
        let annotated = Future.start(on: queue) { () -> Int in 4 }
        let throwing = Future<Int>.start(on: queue) { throw TestError(1) }
        let throwsOrNot = Future.start(on: queue) {
            if flag.ran < 0 { throw TestError(2) }
            return 5
        }
        .then { $0 }
        let throwingNothing = Future.start(on: queue) {
            flag.ran += 1
            if flag.ran < 0 { throw TestError(3) }
        }
        let followed = Future.startFollowing(on: queue) { one }
        let followedChained = Future.startFollowing(on: queue) { one }.then { $0 + 1 }
        let followedSeveral = Future.startFollowing(on: queue) {
            flag.ran += 1
            return one
        }
        let followedThrowing = Future<Int>.startFollowing { throw TestError(4) }

        queue.sync {}
        #expect(nothing.wait().isFulfilled && inline.wait().isFulfilled && throwingNothing.wait().isFulfilled)
        #expect(value.wait().value == 7)
        #expect(chained.wait().value == 8)
        #expect(several.wait().value == 6)
        #expect(annotated.wait().value == 4)
        #expect(describe(throwing.wait()) == "rejected(\(TestError(1)))")
        #expect(throwsOrNot.wait().value == 5)
        #expect(followed.wait().value == 1)
        #expect(followedChained.wait().value == 2)
        #expect(followedSeveral.wait().value == 1)
        #expect(describe(followedThrowing.wait()) == "rejected(\(TestError(4)))")
        queue.sync {}
        #expect(done.value == 1)
        #expect(flag.ran == 6)
        #expect(here.value == 2)
    }
}
