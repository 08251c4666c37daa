#if NIO
    import NIOCore
    import NIOPosix
    import Petal
    import Testing

    // The check is process-wide: each test installs it in a child process of its own, and runs
    // there one of these synchronous bodies (blocking calls are not for async contexts).

    /// Waits, on an event loop, for a future only that loop could resolve.
    private func waitForAPendingFutureOnTheLoop() {
        BlockingWaits.forbidOnEventLoops()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let promise = Promise<Int>()
        // Would deadlock the loop for ever without the check.
        _ = try? group.next().submit { promise.future.wait() }.wait()
    }

    /// Waits, on an event loop, for a future already resolved.
    private func waitForAResolvedFutureOnTheLoop() {
        BlockingWaits.forbidOnEventLoops()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        _ = try? group.next().submit { Future.fulfilled(with: 1).wait() }.wait()
    }

    /// Looks (a timed wait of zero) on the loop, then waits off it for what the loop resolves.
    private func waitOffTheLoop() {
        BlockingWaits.forbidOnEventLoops()
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let promise = Promise<Int>()
        let looked = try? group.next().submit { promise.future.wait(timeout: .zero) == nil }.wait()
        group.next().execute { promise.fulfil(with: 7) }
        precondition(looked == true)
        precondition(promise.future.wait().value == 7)
        try? group.syncShutdownGracefully()
    }

    @Suite("PetalNIO: blocking waits on event loops")
    struct BlockingWaitTests {
        @Test("a wait on an event-loop thread stops the program with a message naming the rule")
        func waitOnTheLoop() async {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                waitForAPendingFutureOnTheLoop()
            }
            let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(message.contains("BUG DETECTED: a blocking wait on a Petal future"))
            #expect(message.contains("event loop"))
        }

        @Test("a wait on a resolved future on the loop is caught too: the same bug, found sooner")
        func resolvedWaitOnTheLoop() async {
            await #expect(processExitsWith: .failure) { waitForAResolvedFutureOnTheLoop() }
        }

        @Test("off the loops, waits block and return as before, and a look with no timeout is allowed on the loop")
        func waitsOffTheLoop() async {
            await #expect(processExitsWith: .success) { waitOffTheLoop() }
        }
    }
#endif
