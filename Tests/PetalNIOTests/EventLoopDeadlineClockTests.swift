#if NIO
    import Dispatch
    import NIOCore
    import NIOPosix
    import Petal
    import PetalNIO
    import Testing

    /// `DeadlineClock.eventLoop(_:)`: deadlines kept by the loop's own timer, expiring on the loop,
    /// and taken off it when the work ends first.
    @Suite("An event loop's deadline clock")
    struct EventLoopDeadlineClockTests {
        @Test("a timeout on the loop's clock expires on the loop, rejected with the timeout's error")
        func expiresOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let clock = DeadlineClock.eventLoop(loop)
                let promise = Promise<Int>()
                let onLoop = Flag()
                // Made on the loop, so that its timer cannot fire before the observer is added:
                // made here, a slow run could see the deadline pass first and run the observer
                // on this thread instead.
                let timed = try loop.submit {
                    let timed = promise.future.timeout(after: .milliseconds(1), clock: clock)
                    timed.whenRejected { _ in if loop.inEventLoop { onLoop.set() } }
                    return timed
                }.wait()
                #expect(throws: FutureTimeoutError.self) { try timed.eventLoopFuture(on: loop).wait() }
                #expect(onLoop.isSet)
                #expect(clock.pendingDeadlineCount == 0)
                #expect(!clock.isManual)
                // Kept alive until here: a promise dropped unresolved would cancel its future.
                promise.fulfil(with: 1)
            }
        }

        @Test("work done in time takes its deadline off the loop")
        func resolvedInTime() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let clock = DeadlineClock.eventLoop(loop)
                let promise = Promise<Int>()
                let timed = promise.future.timeout(after: .seconds(60), clock: clock)
                #expect(clock.pendingDeadlineCount == 1)
                loop.execute { promise.fulfil(with: 7) }
                let value = try timed.eventLoopFuture(on: loop).wait()
                #expect(value == 7)
                #expect(clock.pendingDeadlineCount == 0)
            }
        }

        @Test(
            "timeouts made on many threads, the work and the loop racing: each decided once, none left on the loop",
            .timeLimit(.minutes(2)))
        func racing() throws {
            try withEventLoopGroup(threads: 2) { group in
                let loop = group.next()
                let clock = DeadlineClock.eventLoop(loop)
                let threads = 4
                let perThread = 500
                let decided = Tally()
                let timedOutCount = Tally()
                let fulfilled = Tally()
                let finished = Collected<EventLoopFuture<Void>>()
                DispatchQueue.concurrentPerform(iterations: threads) { thread in
                    var mine: [EventLoopFuture<Void>] = []
                    for index in 0..<perThread {
                        let promise = Promise<Int>()
                        // Deadlines of 0 to 99 µs: the loop expires some, the work wins others.
                        let timed = promise.future.timeout(after: .microseconds(index % 100), clock: clock)
                        timed.whenResolved { outcome in
                            decided.add()
                            switch outcome {
                            case .fulfilled: fulfilled.add()
                            case .rejected(let error) where error is FutureTimeoutError: timedOutCount.add()
                            default: break
                            }
                        }
                        // Answered from another loop, as a backend's reply would be.
                        group.next().execute { promise.fulfil(with: thread) }
                        mine.append(timed.eventLoopFuture(on: loop).map { _ in }.recover { _ in })
                    }
                    finished.append(contentsOf: mine)
                }
                for future in finished.elements { try future.wait() }
                #expect(decided.value == threads * perThread)
                // Every timeout either followed its work or expired: none was cancelled or lost.
                #expect(fulfilled.value + timedOutCount.value == threads * perThread)
                #expect(clock.pendingDeadlineCount == 0)
            }
        }
    }
#endif
