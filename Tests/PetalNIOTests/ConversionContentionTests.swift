#if NIO
    import NIOCore
    import NIOPosix
    import Petal
    import PetalNIO
    import Testing

    /// Conversions made on many threads while other threads resolve what they convert: every value
    /// arrives exactly once, and every EventLoopPromise made is completed. (The tests run in debug,
    /// where NIO also stops the process when an unfulfilled EventLoopFuture is released.)
    @Suite("Conversions under contention")
    struct ConversionContentionTests {
        static let threads = 8
        static let perThread = 500

        @Test("Petal futures converted to EventLoopFutures while other threads resolve them deliver each value once")
        func petalToNIO() throws {
            try withEventLoopGroup(threads: 2) { group in
                let count = Self.threads * Self.perThread
                let promises = (0..<count).map { _ in Promise<Int>() }
                let delivered = Tally()
                let converted = Collected<EventLoopFuture<Int>>()
                // Even threads convert and subscribe, odd threads resolve the same slice meanwhile.
                runOnThreads(2 * Self.threads) { thread in
                    let slice = (thread / 2 * Self.perThread)..<((thread / 2 + 1) * Self.perThread)
                    if thread.isMultiple(of: 2) {
                        let mine = slice.map { index in
                            let future = promises[index].future.eventLoopFuture(on: group.next())
                            future.whenSuccess { delivered.add($0) }
                            return future
                        }
                        converted.append(contentsOf: mine)
                    } else {
                        for index in slice { promises[index].fulfil(with: index) }
                    }
                }
                var sum = 0
                for future in converted.elements { sum += try future.wait() }
                let expected = count * (count - 1) / 2
                #expect(converted.elements.count == count)
                #expect(sum == expected)
                // Each loop ran the counting callbacks before the get() subscribed after them.
                #expect(delivered.value == expected)
            }
        }

        @Test("EventLoopFutures converted to Petal futures while other threads complete them deliver each value once")
        func nioToPetal() throws {
            try withEventLoopGroup(threads: 2) { group in
                let count = Self.threads * Self.perThread
                let promises = (0..<count).map { _ in group.next().makePromise(of: Int.self) }
                let delivered = Tally()
                let converted = Collected<Future<Int>>()
                runOnThreads(2 * Self.threads) { thread in
                    let slice = (thread / 2 * Self.perThread)..<((thread / 2 + 1) * Self.perThread)
                    if thread.isMultiple(of: 2) {
                        let mine = slice.map { index in
                            let future = Future(promises[index].futureResult)
                            future.whenFulfilled { delivered.add($0) }
                            return future
                        }
                        converted.append(contentsOf: mine)
                    } else {
                        for index in slice {
                            if index.isMultiple(of: 3) {
                                promises[index].fail(Boom(code: index))
                            } else {
                                promises[index].succeed(index)
                            }
                        }
                    }
                }
                let outcomes = Future.allResolved(converted.elements).wait().value ?? []
                let values = outcomes.compactMap(\.value)
                let rejected = outcomes.filter(\.isRejected).count
                let expected = (0..<count).filter { !$0.isMultiple(of: 3) }
                #expect(outcomes.count == count)
                #expect(values.count == expected.count)
                #expect(rejected == count - expected.count)
                #expect(values.reduce(0, +) == expected.reduce(0, +))
                // A Petal future runs its callbacks before the combinator's, subscribed later.
                #expect(delivered.value == expected.reduce(0, +))
            }
        }

        @Test("work handed to a loop's context from many threads runs exactly once each, all on the loop")
        func contextFromManyThreads() throws {
            try withEventLoopGroup { group in
                let loop = group.next()
                let ran = Tally()
                let offLoop = Tally()
                let done = Promise<Void>()
                let total = Self.threads * Self.perThread
                runOnThreads(Self.threads) { _ in
                    for _ in 0..<Self.perThread {
                        EventLoopExecutionContext(loop).execute {
                            if !loop.inEventLoop { offLoop.add() }
                            ran.add()
                            // Only the loop's thread bumps the count, so exactly one task sees the last.
                            if ran.value == total { done.fulfil(with: ()) }
                        }
                    }
                }
                try done.future.wait().get()
                #expect(ran.value == total)
                #expect(offLoop.value == 0)
            }
        }
    }
#endif
