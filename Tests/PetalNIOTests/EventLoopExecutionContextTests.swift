#if NIO
    import Dispatch
    import NIOCore
    import NIOPosix
    import Petal
    import PetalNIO
    import Testing

    @Suite("An event loop as an execution context")
    struct EventLoopExecutionContextTests {
        @Test("work handed over on the loop's thread runs there at once, before execute returns")
        func inlineOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let (ranBeforeReturn, ranOnLoop) = try loop.submit {
                    let ran = Flag()
                    let onLoop = Flag()
                    EventLoopExecutionContext(loop).execute {
                        if loop.inEventLoop { onLoop.set() }
                        ran.set()
                    }
                    return (ran.isSet, onLoop.isSet)
                }.wait()
                #expect(ranBeforeReturn)
                #expect(ranOnLoop)
            }
        }

        @Test("work handed over from another thread waits for the loop and runs on it")
        func hopsFromElsewhere() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                // Hold the loop in a task of its own: work handed over now can only queue behind it.
                let holding = DispatchSemaphore(value: 0)
                let held = DispatchSemaphore(value: 0)
                loop.execute {
                    held.signal()
                    holding.wait()
                }
                held.wait()
                #expect(!loop.inEventLoop)
                let ran = Promise<Bool>()
                EventLoopExecutionContext(loop).execute { ran.fulfil(with: loop.inEventLoop) }
                #expect(!ran.isResolved)
                holding.signal()
                let ranOnLoop = try ran.future.wait().get()
                #expect(ranOnLoop)
            }
        }

        @Test("a chain on the loop's context, resolved on the loop, runs every step before the resolving call returns")
        func chainResolvedOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let promise = Promise<Int>()
                let offLoop = Tally()
                var tail = promise.future
                for _ in 0..<10 {
                    tail = tail.then(on: .eventLoop(loop)) { value in
                        if !loop.inEventLoop { offLoop.add() }
                        return value + 1
                    }
                }
                let chained = tail
                let seenByTheResolver = try loop.submit {
                    promise.fulfil(with: 0)
                    return chained.peek()?.value
                }.wait()
                #expect(seenByTheResolver == 10)
                #expect(offLoop.value == 0)
            }
        }

        @Test("a chain of 100 000 steps on the loop's context resolves on the loop without overflowing its stack")
        func deepChainOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let promise = Promise<Int>()
                let offLoop = Tally()
                var tail = promise.future
                for _ in 0..<100_000 {
                    tail = tail.then(on: .eventLoop(loop)) { value in
                        if !loop.inEventLoop { offLoop.add() }
                        return value + 1
                    }
                }
                _ = try loop.submit { promise.fulfil(with: 0) }.wait()
                let value = try tail.wait().get()
                #expect(value == 100_000)
                #expect(offLoop.value == 0)
            }
        }

        @Test("a step whose loop has shut down is cancelled with a DroppedWorkError, not left pending")
        func droppedByAShutDownLoop() throws {
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let loop = group.next()
            try group.syncShutdownGracefully()
            let promise = Promise<Int>()
            let step = promise.future.then(on: .eventLoop(loop)) { $0 + 1 }
            // NIO prints that it cannot schedule on a loop that has shut down, and drops the task.
            promise.fulfil(with: 1)
            guard case .cancelled(let error) = step.wait() else {
                Issue.record("the step was not cancelled")
                return
            }
            #expect(error is DroppedWorkError)
        }

        @Test("the static member names the same loop")
        func staticMember() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let context: EventLoopExecutionContext = .eventLoop(loop)
                #expect(context.eventLoop === loop)
            }
        }
    }
#endif
