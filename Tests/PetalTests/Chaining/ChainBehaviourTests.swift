import Dispatch
import Foundation
import Petal
import Testing

@Suite("Chaining: order, contexts and concurrency")
struct ChainBehaviourTests {
    @Test("steps and observers on one future run in the order they were added")
    func subscriptionOrder() {
        let head = Promise<Int>()
        let order = Recorder<String>()
        _ = head.future.then { order.record("then \($0)") }
        head.future.whenFulfilled { order.record("observer \($0)") }
        _ = head.future.always { order.record("always") }
        head.future.catch { _ in order.record("catch") }
        _ = head.future.additionally { order.record("additionally \($0)") }
        head.fulfil(with: 1)
        #expect(order.events == ["then 1", "observer 1", "always", "additionally 1"])
    }

    @Test("a chain's steps run in chain order, each after the one before it")
    func chainOrder() {
        let head = Promise<Int>()
        let order = Recorder<Int>()
        let tail = head.future
            .then { value -> Int in
                order.record(1)
                return value
            }
            .then { value -> Future<Int> in
                order.record(2)
                return .fulfilled(with: value)
            }
            .always { order.record(3) }
        tail.whenFulfilled { _ in order.record(4) }
        head.fulfil(with: 0)
        #expect(order.events == [1, 2, 3, 4])
    }

    @Test("a step on a custom context runs only when that context runs it")
    func stepOnCustomContext() {
        let context = ManualContext()
        let head = Promise<Int>()
        let ran = Counter()
        let step = head.future.then(on: context) { value -> Int in
            ran.increment()
            return value + 1
        }
        head.fulfil(with: 1)
        #expect(ran.value == 0)
        #expect(!step.isResolved)
        #expect(context.runAll() == 1)
        #expect(ran.value == 1)
        #expect(step.peek()?.value == 2)
    }

    @Test("a failure passes a step on a custom context there too, without running its closure")
    func failurePassesOnContext() {
        let context = ManualContext()
        let head = Promise<Int>()
        let ran = Counter()
        let step = head.future.recover(on: context, includingIndirectErrors: false) { _ -> Int? in
            ran.increment()
            return 0
        }
        head.cancel(withIndirectError: TestError(1))
        #expect(!step.isResolved)
        #expect(context.runAll() == 1)
        #expect(ran.value == 0)
        #expect(describe(step.peek()) == "cancelled(\(TestError(1)))")
    }

    @Test("additionally honours its context (Daisy ignores it)")
    func additionallyHonoursContext() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "petal.tests.additionally")
        queue.setSpecific(key: key, value: "queue")
        let where_ = Recorder<String>()
        let pair = Future<Int>.fulfilled(with: 1).additionally(on: queue) { value -> Int in
            where_.record(DispatchQueue.getSpecific(key: key) ?? "elsewhere")
            return value + 1
        }
        #expect(pair.wait().value.map { "\($0.0),\($0.1)" } == "1,2")
        #expect(where_.events == ["queue"])
    }

    @Test("steps added from many threads while the head is fulfilled each run exactly once, with the value")
    func stepsRacingFulfil() {
        let rounds = scaled(200)
        let subscribers = 3
        let perThread = 40
        for round in 0..<rounds {
            let head = Promise<Int>()
            let chained = Recorder<Future<Int>>()
            let ran = Counter()
            onThreads(subscribers + 1) { index in
                if index == subscribers {
                    head.fulfil(with: round)
                    return
                }
                for _ in 0..<perThread {
                    let step = head.future.then { value -> Int in
                        ran.increment()
                        return value * 2
                    }
                    chained.record(step.then { $0 + 1 })
                }
            }
            #expect(ran.value == subscribers * perThread)
            let values = chained.events.map { $0.peek()?.value }
            #expect(values.count == subscribers * perThread)
            #expect(values.allSatisfy { $0 == round * 2 + 1 })
        }
    }

    @Test("chains resolved on one thread while others extend them deliver every link exactly once")
    func chainsExtendedWhileResolving() {
        let rounds = scaled(100)
        let extenders = 3
        let links = 50
        for round in 0..<rounds {
            let heads = (0..<extenders).map { _ in Promise<Int>() }
            let delivered = Counter()
            let tails = Recorder<Future<Int>>()
            onThreads(extenders + 1) { index in
                if index == extenders {
                    for head in heads { head.fulfil(with: round) }
                    return
                }
                var tail = heads[index].future
                for _ in 0..<links {
                    tail = tail.then { value -> Int in
                        delivered.increment()
                        return value + 1
                    }
                }
                tails.record(tail)
            }
            #expect(delivered.value == extenders * links)
            #expect(tails.events.allSatisfy { $0.peek()?.value == round + links })
        }
    }

    @Test("steps on a concurrent queue, fed from many threads, all resolve with the right values")
    func stepsOnConcurrentQueue() {
        let queue = DispatchQueue(label: "petal.tests.concurrent", attributes: .concurrent)
        let count = scaled(2_000, floor: 100)
        let futures = Recorder<(Int, Future<Int>)>()
        onThreads(4) { index in
            for offset in stride(from: index, to: count, by: 4) {
                let head = Promise<Int>()
                futures.record((offset, head.future.then(on: queue) { $0 * 3 }.recover(on: queue) { _ in -1 }))
                head.fulfil(with: offset)
            }
        }
        let results = futures.events
        #expect(results.count == count)
        #expect(results.allSatisfy { $0.1.wait().value == $0.0 * 3 })
    }
}
