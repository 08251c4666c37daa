import Dispatch
import Petal
import Synchronization
import Testing

@Suite("Memory")
struct MemoryTests {
    @Test("a fulfilled value is freed with the last reference to its future")
    func valueFreedWithFuture() {
        weak var weakValue: Tracked?
        do {
            let promise = Promise<Tracked>()
            let value = Tracked()
            weakValue = value
            promise.fulfil(with: value)
            #expect(promise.future.peek()?.value === value)
        }
        #expect(weakValue == nil)
    }

    @Test("a callback and what it captures are freed once it has run, while the future lives on")
    func callbackFreedAfterRunning() {
        let promise = Promise<Int>()
        weak var first: Tracked?
        weak var second: Tracked?
        do {
            let a = Tracked(1)
            let b = Tracked(2)
            first = a
            second = b
            // The first takes the inline slot, the second a node: both paths must let go.
            promise.future.whenFulfilled { _ in _ = a.id }
            promise.future.whenResolved { _ in _ = b.id }
        }
        #expect(first != nil && second != nil)
        promise.fulfil(with: 1)
        #expect(first == nil)
        #expect(second == nil)
    }

    // Serialized: the callbacks that capture nothing count in globals both cases share.
    @Test(
        "whenFulfilled callbacks in waiter blocks, capturing or not, run once with the value and are freed",
        .serialized, arguments: [true, false])
    func fulfilledCallbacksInBlocks(fulfilled: Bool) {
        // The deliverer calls a closure that captures nothing from its slot's words, and moves
        // one that captures out to release it: both kinds, interleaved, past the inline slot
        // and across several blocks, with a fulfilment (each runs) and a rejection (none does).
        let promise = Promise<Int>()
        let callbacks = 40
        let heard = Recorder<[Int]>()
        ThinCallbacks.calls.store(0, ordering: .relaxed)
        ThinCallbacks.sum.store(0, ordering: .relaxed)
        var captured: [Weak] = []
        do {
            for index in 0..<callbacks {
                if index.isMultiple(of: 2) {
                    promise.future.whenFulfilled { value in
                        ThinCallbacks.calls.add(1, ordering: .relaxed)
                        ThinCallbacks.sum.add(value, ordering: .relaxed)
                    }
                } else {
                    let object = Tracked(index)
                    captured.append(Weak(object))
                    promise.future.whenFulfilled { value in heard.record([object.id, value]) }
                }
            }
        }
        #expect(captured.allSatisfy { $0.object != nil })
        if fulfilled { promise.fulfil(with: 3) } else { promise.reject(with: TestError(1)) }
        let runs = fulfilled ? callbacks / 2 : 0
        #expect(ThinCallbacks.calls.load(ordering: .relaxed) == runs)
        #expect(ThinCallbacks.sum.load(ordering: .relaxed) == 3 * runs)
        // In subscription order, each with the value.
        let expected = fulfilled ? stride(from: 1, to: callbacks, by: 2).map { [$0, 3] } : []
        #expect(heard.events == expected)
        #expect(captured.allSatisfy { $0.object == nil })
    }

    /// Each observer's already-resolved path, whose closure is called as given, not stored: with
    /// a closure capturing three values (an object, an integer and a pair, so the closure has a
    /// context of its own), on each kind of outcome, it runs when its rule says, exactly once,
    /// with what it captured, and the captures are freed as it returns.
    @Test(
        "an observer of a resolved future runs at once under its rule, and frees a closure capturing three values",
        .serialized, arguments: ["fulfilled", "rejected", "cancelled with an error", "cancelled"])
    func resolvedObserversFreeTheirCaptures(outcome: String) {
        let promise = Promise<Int>()
        switch outcome {
        case "fulfilled": promise.fulfil(with: 5)
        case "rejected": promise.reject(with: TestError(6))
        case "cancelled with an error": promise.cancel(withIndirectError: TestError(7))
        default: promise.cancel()
        }
        let heard = Recorder<String>()
        var captured: [Weak] = []
        do {
            let future = promise.future
            let observers: [(Tracked, Int, (Int, Int)) -> Void] = [
                { o, i, p in future.whenResolved { _ in heard.record("resolved \(o.id) \(i) \(p.0)") } },
                { o, i, p in future.whenFulfilled { heard.record("fulfilled \(o.id) \(i) \(p.1) \($0)") } },
                { o, i, p in future.whenRejected { _ in heard.record("rejected \(o.id) \(i) \(p.0)") } },
                { o, i, p in future.whenCancelled { _ in heard.record("cancelled \(o.id) \(i) \(p.0)") } },
                { o, i, p in future.whenAnyError { _ in heard.record("any error \(o.id) \(i) \(p.0)") } },
            ]
            for (index, subscribe) in observers.enumerated() {
                let object = Tracked(index)
                captured.append(Weak(object))
                subscribe(object, index, (index, -index))
            }
        }
        let expected: [String] =
            switch outcome {
            case "fulfilled": ["resolved 0 0 0", "fulfilled 1 1 -1 5"]
            case "rejected": ["resolved 0 0 0", "rejected 2 2 2", "any error 4 4 4"]
            case "cancelled with an error": ["resolved 0 0 0", "cancelled 3 3 3", "any error 4 4 4"]
            default: ["resolved 0 0 0", "cancelled 3 3 3"]
            }
        #expect(heard.events == expected)
        #expect(captured.allSatisfy { $0.object == nil })
    }

    @Test("a callback that never fires is freed with the future")
    func unfiredCallbackFreed() {
        weak var captured: Tracked?
        do {
            let promise = Promise<Int>()
            let object = Tracked()
            captured = object
            promise.future.whenRejected { _ in _ = object.id }
            promise.future.whenRejected { _ in _ = object.id }
            promise.fulfil(with: 1)
        }
        #expect(captured == nil)
    }

    @Test("an abandoned promise frees its future, callbacks and captures")
    func abandonedPromiseFreesEverything() {
        weak var inSlot: Tracked?
        weak var inNode: Tracked?
        let heard = Counter()
        do {
            let promise = Promise<Int>()
            let first = Tracked(1)
            let second = Tracked(2)
            inSlot = first
            inNode = second
            promise.future.whenResolved { _ in
                _ = first.id
                heard.increment()
            }
            promise.future.whenFulfilled { _ in _ = second.id }
        }
        #expect(heard.value == 1)
        #expect(inSlot == nil)
        #expect(inNode == nil)
    }

    @Test("a callback dispatched to a queue is freed after it has run there")
    func dispatchedCallbackFreed() {
        weak var captured: Tracked?
        let queue = DispatchQueue(label: "petal.tests.memory")
        let promise = Promise<Int>()
        do {
            let object = Tracked()
            captured = object
            promise.future.whenFulfilled(on: queue) { _ in _ = object.id }
        }
        promise.fulfil(with: 1)
        // A serial queue releases a block before it starts the next one.
        queue.sync {}
        #expect(captured == nil)
    }

    @Test("a future's storage stays small", arguments: [0, 1])
    func storageSize(kind: Int) {
        let bytes = kind == 0 ? Self.storageSize(of: Int.self) : Self.storageSize(of: String.self)
        // Object header 16 + header 48 (cell 16, cancellation record pointer 8, inline slot 16,
        // flags) + the value or the error: 72 bytes asked for Future<Int>, an 80-byte chunk with
        // 72 usable; 80 for Future<String>, a 96-byte chunk with 88.
        #expect(bytes <= (kind == 0 ? 72 : 88))
    }

    /// The usable bytes of a future's storage, allocated right after this thread's cache was
    /// filled with chunks of every class up to the bound, so that the chunk is of the request's
    /// own class whatever earlier tests left free.
    static func storageSize<Value>(of _: Value.Type) -> Int {
        fillSmallChunkCache(through: 88)
        let promise = Promise<Value>()
        defer { _ = promise.cancel() }
        return promise.future.allocatedByteCount
    }
}

/// What the callbacks that capture nothing record: globals, so that the closures have no context.
private enum ThinCallbacks {
    static let calls = Atomic<Int>(0)
    static let sum = Atomic<Int>(0)
}

/// A weak reference, to watch many objects' lifetimes.
private struct Weak {
    weak var object: Tracked?
    init(_ object: Tracked) { self.object = object }
}
