#if NIO
    import HTTPTypes
    import NIOCore
    import NIOEmbedded
    import NIOHTTPTypes
    import Petal
    import PetalNIO
    import Testing

    /// The requests a limit's shedders have let through and not answered count against it, so
    /// that one pass of an event loop over many connections lets through no more than the limit
    /// and its queue hold, even before any of them reaches `run`.
    @Suite("LoadShedder counts what it lets through")
    struct LoadShedderArrivalsTests {
        typealias Helpers = LoadShedderTests

        /// Answers the oldest request of `channel` with a 200.
        static func answer(_ channel: EmbeddedChannel) throws {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }

        static func status(of channel: EmbeddedChannel) throws -> HTTPResponse.Status? {
            guard case .head(let head) = try Helpers.written(channel).first else { return nil }
            return head.status
        }

        @Test("requests let through on other connections fill the limit and its queue before any reaches run")
        func countsAcrossConnections() throws {
            let limit = ConcurrencyLimit(maximum: 1, queue: 1)
            let channels = (0..<3).map { _ in EmbeddedChannel(handler: LoadShedder(limit: limit)) }
            try Helpers.send(Helpers.head(), to: channels[0])
            try Helpers.send(Helpers.head(), to: channels[1])
            #expect(try Helpers.passed(channels[0]).count == 3)
            #expect(try Helpers.passed(channels[1]).count == 3)
            #expect(limit.arrivalsForTests == 2)
            // The limit itself holds nothing yet, and still the third is refused on the loop.
            #expect(limit.inFlight == 0 && !limit.isFull)
            try Helpers.send(Helpers.head(), to: channels[2])
            #expect(try Helpers.passed(channels[2]).isEmpty)
            #expect(try Self.status(of: channels[2]) == .serviceUnavailable)
            // One answered: a place again.
            try Self.answer(channels[0])
            #expect(limit.arrivalsForTests == 1)
            try Helpers.send(Helpers.head(), to: channels[2])
            #expect(try Helpers.passed(channels[2]).count == 3)
            #expect(limit.arrivalsForTests == 2)
            for channel in channels { _ = try channel.finish() }
            #expect(limit.arrivalsForTests == 0)
        }

        @Test("a connection that closes with requests unanswered, pipelined ones too, gives their places back")
        func closingUncounts() throws {
            let limit = ConcurrencyLimit(maximum: 4)
            let channel = EmbeddedChannel(handler: LoadShedder(limit: limit))
            for _ in 0..<3 { try Helpers.send(Helpers.head(), to: channel) }
            #expect(try Helpers.passed(channel).count == 9)
            #expect(limit.arrivalsForTests == 3)
            try Self.answer(channel)
            #expect(limit.arrivalsForTests == 2)
            _ = try channel.finish()
            #expect(limit.arrivalsForTests == 0)
        }

        @Test("a request the predicate spares takes no place, and its answer gives none back")
        func sparedRequestsAreNotCounted() throws {
            let limit = ConcurrencyLimit(maximum: 1)
            let shedder = LoadShedder(limit: limit, sheddable: { $0.path?.hasPrefix("/work") == true })
            let channel = EmbeddedChannel(handler: shedder)
            try Helpers.send(Helpers.head("/health"), to: channel)
            try Helpers.send(Helpers.head("/work"), to: channel)  // pipelined: passed, counted
            #expect(try Helpers.passed(channel).count == 6)
            #expect(limit.arrivalsForTests == 1)
            try Self.answer(channel)  // /health's
            #expect(limit.arrivalsForTests == 1)
            try Self.answer(channel)  // /work's
            #expect(limit.arrivalsForTests == 0)
            _ = try channel.finish()
        }

        @Test("a response the server writes with no request let through (a codec's error) leaves the count alone")
        func unmatchedResponses() throws {
            let limit = ConcurrencyLimit(maximum: 1)
            let channel = EmbeddedChannel(handler: LoadShedder(limit: limit))
            try Self.answer(channel)
            #expect(limit.arrivalsForTests == 0)
            try Helpers.send(Helpers.head(), to: channel)
            #expect(limit.arrivalsForTests == 1)
            _ = try channel.finish()
            #expect(limit.arrivalsForTests == 0)
        }

        @Test("many connections on many threads, each asking and answering: every place comes back, none is lost")
        func exactAcrossThreads() async throws {
            let threads = 8
            let rounds = 2_000
            let limit = ConcurrencyLimit(maximum: threads, queue: 0)
            let passed = Tally()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threads {
                    group.addTask {
                        // One connection per thread: a channel belongs to one thread at a time.
                        let channel = EmbeddedChannel(handler: LoadShedder(limit: limit))
                        for _ in 0..<rounds {
                            try? Helpers.send(Helpers.head(), to: channel)
                            if let parts = try? Helpers.passed(channel), !parts.isEmpty { passed.add() }
                            try? Self.answer(channel)
                            _ = try? Helpers.written(channel)
                        }
                        _ = try? channel.finish()
                    }
                }
            }
            // A place per connection: with each connection asking one at a time, none is refused.
            #expect(passed.value == threads * rounds)
            #expect(limit.arrivalsForTests == 0)
        }
    }

#endif
