#if NIO
    import NIOCore
    import NIOPosix
    import Petal
    import PetalNIO
    import Testing

    @Suite("A Petal future as an EventLoopFuture")
    struct FutureToEventLoopFutureTests {
        @Test("a fulfilment succeeds the EventLoopFuture with the value")
        func fulfilment() throws {
            try withEventLoopGroup { group in
                let promise = Promise<Int>()
                let converted = promise.future.eventLoopFuture(on: group.next())
                promise.fulfil(with: 42)
                let value = try converted.wait()
                #expect(value == 42)
            }
        }

        @Test("a rejection fails the EventLoopFuture with the error")
        func rejection() throws {
            try withEventLoopGroup { group in
                let promise = Promise<Int>()
                let converted = promise.future.eventLoopFuture(on: group.next())
                promise.reject(with: Boom(code: 1))
                #expect(throws: Boom(code: 1)) { try converted.wait() }
            }
        }

        @Test("a cancellation fails the EventLoopFuture with FutureCancelledError carrying the indirect error")
        func cancellation() throws {
            try withEventLoopGroup { group in
                let withError = Promise<Int>()
                let withoutError = Promise<Int>()
                let loop = group.next()
                let convertedWithError = withError.future.eventLoopFuture(on: loop)
                let convertedWithoutError = withoutError.future.eventLoopFuture(on: loop)
                withError.cancel(withIndirectError: Boom(code: 2))
                withoutError.cancel()
                let error = #expect(throws: FutureCancelledError.self) { try convertedWithError.wait() }
                #expect(error?.indirectError as? Boom == Boom(code: 2))
                let bare = #expect(throws: FutureCancelledError.self) { try convertedWithoutError.wait() }
                #expect(bare?.indirectError == nil)
            }
        }

        @Test("a cancellation survives the round trip through an EventLoopFuture")
        func roundTrip() throws {
            try withEventLoopGroup { group in
                let promise = Promise<Int>()
                let back = Future(promise.future.eventLoopFuture(on: group.next()))
                promise.cancel(withIndirectError: Boom(code: 3))
                guard case .cancelled(let indirectError) = back.wait() else {
                    Issue.record("the round trip did not keep the cancellation")
                    return
                }
                #expect(indirectError as? Boom == Boom(code: 3))
            }
        }

        @Test("a future already resolved gives an EventLoopFuture completed the same way")
        func alreadyResolved() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let value = try Future.fulfilled(with: 7).eventLoopFuture(on: loop).wait()
                #expect(value == 7)
                #expect(throws: Boom(code: 4)) {
                    try Future<Int>.rejected(with: Boom(code: 4)).eventLoopFuture(on: loop).wait()
                }
                #expect(throws: FutureCancelledError.self) {
                    try Future<Int>.cancelled().eventLoopFuture(on: loop).wait()
                }
            }
        }

        @Test("resolved on another thread, the EventLoopFuture's callbacks still run on its loop")
        func callbacksOnTheLoop() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let promise = Promise<Int>()
                let onLoop = Promise<Bool>()
                promise.future.eventLoopFuture(on: loop).whenComplete { _ in onLoop.fulfil(with: loop.inEventLoop) }
                promise.fulfil(with: 1)
                let completedOnLoop = try onLoop.future.wait().get()
                #expect(completedOnLoop)
            }
        }

        @Test("a Petal promise dropped unresolved fails the EventLoopFuture, so NIO's promise is not leaked")
        func abandonedPromise() throws {
            try withEventLoopGroup { group in
                var promise: Promise<Int>? = Promise<Int>()
                let converted = promise!.future.eventLoopFuture(on: group.next())
                promise = nil
                let error = #expect(throws: FutureCancelledError.self) { try converted.wait() }
                #expect(error?.indirectError is AbandonedPromiseError)
            }
        }
    }
#endif
