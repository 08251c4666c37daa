import Petal
import Synchronization
import Testing

@Suite("Contention")
struct ContentionTests {
    @Test("subscribers racing resolvers: every callback runs once, in each thread's order, none lost")
    func subscribersRacingResolvers() {
        let rounds = scaled(200)
        let subscribers = 6
        let resolvers = 2
        let perThread = 16
        for round in 0..<rounds {
            let promise = Promise<Int>()
            let future = promise.future
            let ran = (0..<subscribers).map { _ in Recorder<Int>() }
            let values = Recorder<Int>()
            let winners = Recorder<Int>()
            onThreads(subscribers + resolvers) { index in
                if index < subscribers {
                    let record = ran[index]
                    for callback in 0..<perThread {
                        future.whenFulfilled { value in
                            record.record(callback)
                            values.record(value)
                        }
                    }
                } else if promise.fulfil(with: round * 10 + index) {
                    winners.record(round * 10 + index)
                }
            }
            #expect(winners.events.count == 1)
            for record in ran {
                #expect(record.events == Array(0..<perThread))
            }
            // Every callback saw the winner's value.
            #expect(Set(values.events) == Set(winners.events))
            #expect(values.events.count == subscribers * perThread)
        }
    }

    @Test("mixed observers racing a rejection: each kind fires exactly when it should")
    func mixedObserversRacingRejection() {
        let rounds = scaled(200)
        for _ in 0..<rounds {
            let promise = Promise<Int>()
            let resolved = Counter()
            let rejected = Counter()
            let wrong = Counter()
            onThreads(4) { index in
                switch index {
                case 0:
                    promise.reject(with: TestError(1))
                case 1:
                    for _ in 0..<8 {
                        promise.future.whenResolved { _ in resolved.increment() }
                    }
                case 2:
                    for _ in 0..<8 {
                        promise.future.whenRejected { _ in rejected.increment() }
                        promise.future.whenFulfilled { _ in wrong.increment() }
                    }
                default:
                    for _ in 0..<8 {
                        promise.future.whenAnyError { _ in rejected.increment() }
                        promise.future.whenCancelled { _ in wrong.increment() }
                    }
                }
            }
            #expect(resolved.value == 8)
            #expect(rejected.value == 16)
            #expect(wrong.value == 0)
        }
    }

    @Test("many promises shared by many threads: half fulfil, half subscribe, nothing lost")
    func manyPromisesSharedByThreads() {
        let promiseCount = scaled(2_000, floor: 100)
        let threads = 8
        let promises = (0..<promiseCount).map { _ in Promise<Int>() }
        let delivered = (0..<promiseCount).map { _ in Counter() }
        onThreads(threads) { index in
            for (offset, promise) in promises.enumerated() {
                if index.isMultiple(of: 2) {
                    promise.fulfil(with: offset)
                } else {
                    let counter = delivered[offset]
                    promise.future.whenFulfilled { value in
                        if value == offset { counter.increment() }
                    }
                }
            }
        }
        #expect(delivered.allSatisfy { $0.value == threads / 2 })
    }

    @Test("blocking waiters on many threads all wake with the outcome")
    func manyBlockingWaiters() {
        for round in 0..<scaled(50) {
            let promise = Promise<Int>()
            let outcomes = Recorder<Int>()
            onThreads(5) { index in
                if index == 0 {
                    promise.fulfil(with: round)
                } else if let value = promise.future.wait().value {
                    outcomes.record(value)
                }
            }
            #expect(outcomes.events == Array(repeating: round, count: 4))
        }
    }
}
