import Dispatch
import Petal
import Testing

// Callers that turn cancellation back on itself: handlers that re-enter Petal (request again,
// resolve and wait, register, subscribe, chain, block on another thread), pool items that add to
// or drain their own pool, pools let go of with work in them, and many threads asking at once.
// Every handler here captures its promise weakly (see `AskablePromise`): a strong capture would
// keep a pending promise alive through its own future, a cycle leak detection reports.

/// A pool that an item can let go of from inside the pool's own drain.
private final class PoolHolder: @unchecked Sendable {
    // @unchecked: only touched on the test's thread, which is also the draining thread.
    var pool: CancellationPool?
}

@Suite("Cancellation: hostile callers")
struct CancellationHostileCallerTests {
    // MARK: Handlers that re-enter Petal

    @Test("a handler that requests cancellation of its own future again runs once, and the future stays pending")
    func handlerRequestsAgain() {
        let promise = Promise<Int>()
        let runs = Counter()
        promise.whenCancellationRequested { [weak promise] in
            runs.increment()
            // Re-entrant: the request this handler answers is still on the stack.
            promise?.future.requestCancellation()
            promise?.future.requestCancellation()
        }
        promise.future.requestCancellation()
        #expect(runs.value == 1)
        #expect(promise.future.isCancellationRequested)
        // A request is a wish: only the producer resolves.
        #expect(promise.future.peek() == nil)
        promise.fulfil(with: 1)
        promise.future.requestCancellation()
        #expect(runs.value == 1)
        #expect(describe(promise.future.peek()) == "fulfilled(1)")
    }

    @Test("a handler that cancels its promise and then waits on the future gets the cancellation at once")
    func handlerResolvesThenWaits() {
        let promise = Promise<Int>()
        let seen = Recorder<String>()
        promise.whenCancellationRequested { [weak promise] in
            guard let promise else { return }
            promise.cancel(withIndirectError: TestError(7))
            // Resolved on this thread a moment ago: neither wait may block.
            seen.record(describe(promise.future.wait()))
            seen.record(describe(promise.future.wait(timeout: .seconds(3_600))))
        }
        promise.future.requestCancellation()
        #expect(seen.events == ["cancelled(\(TestError(7)))", "cancelled(\(TestError(7)))"])
    }

    @Test("a handler that registers another handler from inside: the new one runs at once, before the first returns")
    func handlerRegistersHandler() {
        let promise = Promise<Int>()
        let order = Recorder<String>()
        promise.whenCancellationRequested { [weak promise] in
            order.record("first")
            // The request already closed the list: a handler added now runs at once.
            promise?.whenCancellationRequested { order.record("nested") }
            order.record("first done")
        }
        promise.whenCancellationRequested { order.record("second") }
        promise.future.requestCancellation()
        #expect(order.events == ["first", "nested", "first done", "second"])
        promise.future.requestCancellation()
        #expect(order.events.count == 4)
        promise.fulfil(with: 1)
    }

    @Test("a handler that subscribes, chains and asks the new step to cancel, then cancels: each resolves once")
    func handlerSubscribesAndChains() {
        let promise = Promise<Int>()
        let runs = Counter()
        let seen = Recorder<String>()
        promise.whenCancellationRequested { [weak promise] in
            guard let promise else { return }
            runs.increment()
            let future = promise.future
            future.whenResolved { seen.record("callback \(describe($0))") }
            let ran = Counter()
            let step = future.then { value -> Int in
                ran.increment()
                return value
            }
            // The step's request finds its upstream already asked: it cancels the step only,
            // and must not ask this handler again.
            step.requestCancellation()
            seen.record("step \(describe(step.peek()))")
            promise.cancel()
            seen.record("after cancel, step \(describe(step.peek())), ran \(ran.value)")
        }
        promise.future.requestCancellation()
        #expect(runs.value == 1)
        #expect(
            seen.events == [
                "step cancelled(nil)", "callback cancelled(nil)", "after cancel, step cancelled(nil), ran 0",
            ])
        #expect(describe(promise.future.peek()) == "cancelled(nil)")
    }

    @Test("a handler blocked on a future another thread resolves, while that thread asks again, finishes the request")
    func handlerWaitsOnAnotherThread() {
        let promise = Promise<Int>()
        let other = Promise<Int>()
        let runs = Counter()
        let helper = DispatchGroupBox()
        let future = promise.future
        promise.whenCancellationRequested { [weak promise] in
            runs.increment()
            helper.run {
                // While the handler blocks below: the second request must neither wait for it
                // nor run it again (no lock is held while a handler runs).
                future.requestCancellation()
                other.fulfil(with: 5)
            }
            let outcome = other.future.wait()
            promise?.resolve(with: outcome)
        }
        future.requestCancellation()
        helper.wait()
        #expect(runs.value == 1)
        #expect(describe(future.peek()) == "fulfilled(5)")
    }

    // MARK: Requests that change nothing

    @Test(
        "requestCancellation on a resolved future does nothing: no handler runs, nothing is marked",
        arguments: Receiver.allCases)
    func requestOnResolved(_ receiver: Receiver) {
        let promise = Promise<Int>()
        let runs = Counter()
        promise.whenCancellationRequested { runs.increment() }
        promise.resolve(with: receiver.outcome)
        let chained = promise.future.then { $0 + 1 }
        let chainedBefore = describe(chained.peek())
        promise.future.requestCancellation()
        chained.requestCancellation()
        #expect(runs.value == 0)
        #expect(!promise.future.isCancellationRequested)
        #expect(!chained.isCancellationRequested)
        #expect(describe(promise.future.peek()) == describe(receiver.outcome))
        #expect(describe(chained.peek()) == chainedBefore)
        // A future that never had a record does not get one for a request it ignores.
        let plain = Future<Int>(resolvedWith: receiver.outcome)
        plain.requestCancellation()
        #expect(!plain.hasCancellationRecordForTests)
    }

    @Test("requestCancellation on a finished job's future leaves the job finished and its hook unrun")
    func requestOnFinishedJob() {
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        job.complete(with: 2)
        future.requestCancellation()
        #expect(job.state == .completed)
        #expect(job.hookSaw.events.isEmpty)
        #expect(describe(future.peek()) == "fulfilled(2)")
    }

    // MARK: Pools turned on themselves

    @Test("an item that re-adds itself and drains from inside, 100 deep, is asked once by each drain")
    func itemReAddsAndDrainsDeeply() {
        let pool = CancellationPool()
        let depth = 100
        let item = CountingCancellable { item in
            guard item.asked.value <= depth else { return }
            pool.add(item)
            pool.drain()
        }
        pool.add(item)
        pool.drain()
        #expect(item.asked.value == depth + 1)
        #expect(pool.storedEntryCount == 0)
    }

    @Test("items that add to and drain their pool from inside, on many threads at once, are each asked exactly once")
    func reentrantItemsOnManyThreads() {
        let threads = 4
        let perThread = scaled(500, floor: 50)
        for round in 0..<scaled(20, floor: 3) {
            let pool = CancellationPool()
            let children = Recorder<CountingCancellable>()
            let parents = (0..<threads).map { _ in
                (0..<perThread).map { _ in
                    CountingCancellable { _ in
                        let child = CountingCancellable()
                        children.record(child)
                        pool.add(child)
                        pool.drain()
                    }
                }
            }
            onThreads(threads) { thread in
                for (index, parent) in parents[thread].enumerated() {
                    pool.add(parent)
                    if index.isMultiple(of: 3) { pool.drain() }
                }
            }
            pool.drain()
            let all = parents.joined()
            #expect(all.filter { $0.asked.value != 1 }.isEmpty, "round \(round)")
            #expect(children.events.count == threads * perThread, "round \(round)")
            #expect(children.events.filter { $0.asked.value != 1 }.isEmpty, "round \(round)")
            #expect(pool.storedEntryCount == 0, "round \(round)")
        }
    }

    @Test("a pool let go of from inside its own drain finishes the drain, then is freed")
    func poolReleasedDuringItsDrain() {
        let holder = PoolHolder()
        weak var weakPool: CancellationPool?
        let dropper = CountingCancellable { _ in holder.pool = nil }
        let after = CountingCancellable()
        do {
            let pool = CancellationPool()
            weakPool = pool
            holder.pool = pool
            pool.add(dropper)
            pool.add(after)
        }
        holder.pool?.drain()
        #expect(dropper.asked.value == 1)
        #expect(after.asked.value == 1)
        #expect(weakPool == nil)
    }

    @Test("a pool dropped with pending work asks nobody, and its items and jobs carry on")
    func poolDroppedWithPendingWork() {
        let items = (0..<scaled(200_000, floor: 20_000)).map { _ in CountingCancellable() }
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        weak var weakPool: CancellationPool?
        do {
            let pool = CancellationPool()
            weakPool = pool
            // Live items, so no prune shortens the list: the deinit frees every entry, and must
            // do so without recursing once per entry.
            pool.add(contentsOf: items.map { $0 as any Cancellable })
            pool.add(job)
        }
        #expect(weakPool == nil)
        #expect(items.allSatisfy { $0.asked.value == 0 })
        #expect(job.state == .executing)
        job.complete(with: 3)
        #expect(describe(future.peek()) == "fulfilled(3)")
        // The items are whole: another pool asks them.
        let next = CancellationPool()
        next.add(contentsOf: items.prefix(10).map { $0 as any Cancellable })
        next.drain()
        #expect(items.prefix(10).allSatisfy { $0.asked.value == 1 })
    }

    @Test("the same item added twice is asked once per add; a job so added is cancelled once")
    func sameItemAddedTwice() {
        let pool = CancellationPool()
        let item = CountingCancellable()
        pool.add(item)
        pool.add(item)
        #expect(pool.storedEntryCount == 2)
        pool.drain()
        // Entries, not items, are what a pool counts: the contract of attemptCancel (do nothing
        // when there is nothing to cancel) is what makes a second ask harmless.
        #expect(item.asked.value == 2)
        let job = ManualJob<Int, Int>()
        let future = Future.start(running: job, with: 1)
        pool.add(job)
        pool.add(job)
        pool.drain()
        #expect(job.state == .cancelled)
        #expect(job.hookSaw.events == [.cancelled])
        #expect(describe(future.peek()) == "cancelled(nil)")
        #expect(pool.storedEntryCount == 0)
    }

    // MARK: Many threads

    @Test("8 threads requesting cancellation of one pending future: the handler runs exactly once per round")
    func manyThreadsRequestOneFuture() {
        let threads = 8
        let rounds = scaled(1_000, floor: 100)
        var wrongRounds: [String] = []
        for round in 0..<rounds {
            let promise = Promise<Int>()
            let runs = Counter()
            let sawRequested = Counter()
            promise.whenCancellationRequested { [weak promise] in
                runs.increment()
                // Hostile on top: ask again from inside, then cancel while others still ask.
                promise?.future.requestCancellation()
                promise?.cancel()
            }
            let future = promise.future
            // Held through the round: a promise released early is abandoned, which would
            // resolve the future before anyone asks.
            withExtendedLifetime(promise) {
                onThreads(threads) { _ in
                    future.requestCancellation()
                    if future.isCancellationRequested { sawRequested.increment() }
                }
            }
            let outcome = describe(future.peek())
            if runs.value != 1 || sawRequested.value != threads || outcome != "cancelled(nil)" {
                wrongRounds.append("round \(round): ran \(runs.value), saw \(sawRequested.value), \(outcome)")
            }
        }
        #expect(wrongRounds.isEmpty, "\(wrongRounds.prefix(5))")
    }
}
