#if NIO
    import NIOCore
    import NIOPosix
    import Petal
    import PetalNIO
    import Testing

    @Suite("An EventLoopFuture as a Petal future")
    struct FutureFromEventLoopFutureTests {
        @Test("a success fulfils the Petal future with the value")
        func success() throws {
            try withEventLoopGroup { group in
                let promise = group.next().makePromise(of: Int.self)
                let future = Future(promise.futureResult)
                promise.succeed(42)
                let value = try future.wait().get()
                #expect(value == 42)
            }
        }

        @Test("a failure rejects the Petal future with the error")
        func failure() throws {
            try withEventLoopGroup { group in
                let promise = group.next().makePromise(of: Int.self)
                let future = Future(promise.futureResult)
                promise.fail(Boom(code: 1))
                guard case .rejected(let error) = future.wait() else {
                    Issue.record("the future was not rejected")
                    return
                }
                #expect(error as? Boom == Boom(code: 1))
            }
        }

        @Test("a failure with FutureCancelledError cancels the Petal future with its indirect error")
        func cancellation() throws {
            try withEventLoopGroup { group in
                let promise = group.next().makePromise(of: Int.self)
                let future = Future(promise.futureResult)
                promise.fail(FutureCancelledError(indirectError: Boom(code: 2)))
                guard case .cancelled(let indirectError) = future.wait() else {
                    Issue.record("the future was not cancelled")
                    return
                }
                #expect(indirectError as? Boom == Boom(code: 2))
            }
        }

        @Test("an EventLoopFuture that has already completed gives a Petal future resolved the same way")
        func alreadyCompleted() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let value = try Future(loop.makeSucceededFuture(7)).wait().get()
                #expect(value == 7)
                let failed: EventLoopFuture<Int> = loop.makeFailedFuture(Boom(code: 3))
                #expect(Future(failed).wait().error as? Boom == Boom(code: 3))
            }
        }

        @Test("the Petal future resolves on the loop, so its inline callbacks run there")
        func resolvesOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let promise = loop.makePromise(of: Int.self)
                let onLoop = Promise<Bool>()
                Future(promise.futureResult).whenResolved { _ in onLoop.fulfil(with: loop.inEventLoop) }
                promise.succeed(1)
                let resolvedOnLoop = try onLoop.future.wait().get()
                #expect(resolvedOnLoop)
            }
        }
    }
#endif
