#if ServiceLifecycle
    import Logging
    import Petal
    @testable import PetalServiceLifecycle
    import ServiceLifecycle
    import ServiceLifecycleTestKit
    import Synchronization
    import Testing

    /// RequestDrain: what it keeps, what it asks on shutdown, and when it returns.
    @Suite("RequestDrain")
    struct RequestDrainTests {
        /// A request's future whose asks to stop are counted, and that resolves only when told.
        final class Request: Sendable {
            let promise = Promise<Int>()
            private let asks = Asks()

            /// The asks heard: a class of its own, so that the handler holds it and not the request.
            final class Asks: Sendable {
                let count = Atomic(0)
            }

            init() {
                // The request is passed on to the producer, which counts it and does not stop.
                promise.whenCancellationRequested { [asks] in asks.count.add(1, ordering: .relaxed) }
            }

            var future: Future<Int> { promise.future }
            var askCount: Int { asks.count.load(ordering: .relaxed) }
        }

        @Test("a future is kept while pending and dropped when it resolves, exactly, over many threads")
        func keptWhilePending() async {
            let drain = RequestDrain(gracePeriod: .seconds(1))
            let requests = (0..<4_000).map { _ in Request() }
            await withTaskGroup(of: Void.self) { group in
                for slice in 0..<4 {
                    group.addTask {
                        for index in stride(from: slice, to: requests.count, by: 4) {
                            drain.track(requests[index].future)
                            // Every other one resolves at once, beside the other threads' tracking.
                            if index % 2 == 0 { requests[index].promise.fulfil(with: index) }
                        }
                    }
                }
            }
            #expect(drain.pendingCount == 2_000)
            for (index, request) in requests.enumerated() where index % 2 == 1 { request.promise.fulfil(with: 0) }
            #expect(drain.pendingCount == 0)
            let resolved = Future.fulfilled(with: 1)
            #expect(drain.track(resolved).peek()?.value == 1)
            #expect(drain.pendingCount == 0)
        }

        @Test("on shutdown each pending future is asked to stop once, and run returns when none is pending")
        func drainsOnShutdown() async throws {
            let drain = RequestDrain(gracePeriod: .seconds(3_600))
            let requests = (0..<100).map { _ in Request() }
            for request in requests { drain.track(request.future) }
            requests[0].promise.fulfil(with: 0)
            try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await drain.run() }
                    trigger.triggerGracefulShutdown()
                    // Polled, not timed: the drain asks on its own task, after it sets isDraining.
                    while !requests.dropFirst().allSatisfy({ $0.askCount > 0 }) { await Task.yield() }
                    #expect(drain.isDraining)
                    #expect(requests[0].askCount == 0)
                    #expect(requests.dropFirst().allSatisfy { $0.askCount == 1 })
                    // A future tracked now is asked at once, and waited for like the rest.
                    let late = Request()
                    drain.track(late.future)
                    #expect(late.askCount == 1)
                    #expect(drain.pendingCount == 100)
                    for request in requests.dropFirst() { request.promise.cancel() }
                    #expect(drain.pendingCount == 1)
                    late.promise.cancel()
                    // run() returns now that none is pending: the grace period is an hour.
                    try await group.waitForAll()
                }
            }
            #expect(requests.dropFirst().allSatisfy { $0.askCount == 1 })
            #expect(drain.pendingCount == 0)
        }

        /// Whether `run()` has returned.
        final class Returned: Sendable {
            let flag = Atomic(false)

            /// Runs `drain` in `group`, setting the flag when `run()` returns.
            func run(_ drain: RequestDrain, in group: inout ThrowingTaskGroup<Void, any Error>) {
                group.addTask {
                    try await drain.run()
                    self.flag.store(true, ordering: .releasing)
                }
            }
        }

        @Test(
            "tracking on many threads while the drain begins: each future pending after it began is asked once, and run waits for the last"
        )
        func trackingRacesTheDrain() async throws {
            for _ in 0..<20 {
                let drain = RequestDrain(gracePeriod: .seconds(3_600), clock: .manual())
                let requests = (0..<2_000).map { _ in Request() }
                let returned = Returned()
                try await testGracefulShutdown { trigger in
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        returned.run(drain, in: &group)
                        await withTaskGroup(of: Void.self) { trackers in
                            for slice in 0..<4 {
                                trackers.addTask {
                                    for index in stride(from: slice, to: requests.count, by: 4) {
                                        if index == requests.count / 2 { trigger.triggerGracefulShutdown() }
                                        drain.track(requests[index].future)
                                        // The even ones resolve at once, beside the others' tracking.
                                        if index.isMultiple(of: 2) { requests[index].promise.fulfil(with: index) }
                                    }
                                }
                            }
                        }
                        let pending = requests.enumerated().filter { !$0.offset.isMultiple(of: 2) }.map(\.element)
                        // Asked by run() (pending when it visited their stripe) or at once
                        // (tracked after): once either way. Polled: run asks on its own task.
                        while !pending.allSatisfy({ $0.askCount > 0 }) { await Task.yield() }
                        #expect(pending.allSatisfy { $0.askCount == 1 })
                        #expect(drain.pendingCount == pending.count)
                        for request in pending.dropLast() { request.promise.cancel() }
                        #expect(drain.pendingCount == 1)
                        let returnedEarly = returned.flag.load(ordering: .acquiring)
                        #expect(!returnedEarly)
                        pending.last?.promise.cancel()
                        // The grace period is an hour on a manual clock: run returns because
                        // nothing is pending.
                        try await group.waitForAll()
                    }
                }
                let returnedAtLast = returned.flag.load(ordering: .acquiring)
                #expect(returnedAtLast)
                #expect(drain.pendingCount == 0)
            }
        }

        @Test("a stripe that empties while the drain runs and is tracked into again is waited for too")
        func reopenedStripe() async throws {
            let drain = RequestDrain(gracePeriod: .seconds(3_600), clock: .manual())
            let first = Request()
            drain.track(first.future, inStripe: 0)
            let returned = Returned()
            try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    returned.run(drain, in: &group)
                    trigger.triggerGracefulShutdown()
                    // Polled: run() asks on its own task, then gives up its own share.
                    while first.askCount == 0 || drain.unfinishedShares != 1 { await Task.yield() }
                    // Stripe 1 was empty when the drain began: a request tracked into it now is
                    // asked at once and waited for; its resolution empties the stripe again.
                    let second = Request()
                    drain.track(second.future, inStripe: 1)
                    #expect(second.askCount == 1)
                    #expect(drain.unfinishedShares == 2)
                    second.promise.cancel()
                    #expect(drain.unfinishedShares == 1)
                    let returnedEarly = returned.flag.load(ordering: .acquiring)
                    #expect(!returnedEarly)
                    first.promise.cancel()
                    try await group.waitForAll()
                }
            }
            #expect(drain.unfinishedShares == 0)
            #expect(drain.pendingCount == 0)
        }

        @Test("run returns when the grace period passes on its clock, with futures still pending")
        func gracePeriodBounds() async throws {
            let clock = DeadlineClock.manual()
            let drain = RequestDrain(gracePeriod: .seconds(10), clock: clock)
            let stuck = Request()
            drain.track(stuck.future)
            try await testGracefulShutdown { trigger in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await drain.run() }
                    trigger.triggerGracefulShutdown()
                    // The grace period's timer is set once run() has asked: then a manual
                    // clock's advance fires it.
                    while clock.pendingDeadlineCount == 0 { await Task.yield() }
                    #expect(stuck.askCount == 1)
                    clock.advance(by: .seconds(10))
                    try await group.waitForAll()
                }
            }
            #expect(drain.pendingCount == 1)
            stuck.promise.cancel()
            #expect(drain.pendingCount == 0)
        }

        @Test("with nothing pending, run returns as soon as the shutdown begins")
        func nothingPending() async throws {
            let drain = RequestDrain(gracePeriod: .seconds(3_600), clock: .manual())
            try await testGracefulShutdown { trigger in
                trigger.triggerGracefulShutdown()
                try await drain.run()
            }
            #expect(drain.isDraining)
        }

        @Test("cancelled before the shutdown, run asks every future to stop and returns without waiting")
        func cancelledAsksAndReturns() async throws {
            let drain = RequestDrain(gracePeriod: .seconds(3_600), clock: .manual())
            let request = Request()
            drain.track(request.future)
            let run = Task { try await drain.run() }
            run.cancel()
            try await run.value
            #expect(request.askCount == 1)
            #expect(drain.pendingCount == 1)
            request.promise.cancel()
        }

        /// Stands for Hummingbird's Application: on graceful shutdown, notes what is still
        /// pending in the drain, as the application would then wait for it.
        final class Server: Service {
            let drain: RequestDrain
            let pendingAtShutdown = PosixLock<Int?>(nil)

            init(drain: RequestDrain) {
                self.drain = drain
            }

            func run() async throws {
                try? await gracefulShutdown()
                pendingAtShutdown.withLock { $0 = drain.pendingCount }
            }
        }

        @Test("listed after the server in a ServiceGroup, the drain has stopped every request before the server stops")
        func serviceGroupOrder() async throws {
            let drain = RequestDrain(gracePeriod: .seconds(3_600), clock: .manual())
            let server = Server(drain: drain)
            let requests = (0..<10).map { _ in Promise<Int>() }
            for request in requests {
                // A producer that stops when asked.
                request.cancelWhenRequested {}
                drain.track(request.future)
            }
            let group = ServiceGroup(
                configuration: .init(services: [server, drain], logger: Logger(label: "RequestDrainTests")))
            try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { try await group.run() }
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
            }
            #expect(requests.allSatisfy { $0.future.peek()?.isCancelled == true })
            #expect(server.pendingAtShutdown.withLock { $0 } == 0)
        }
    }
#endif
