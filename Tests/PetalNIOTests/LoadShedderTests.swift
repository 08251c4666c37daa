#if NIO
    import HTTPTypes
    import NIOCore
    import NIOEmbedded
    import NIOHTTPTypes
    import Petal
    import PetalNIO
    import Testing

    /// LoadShedder on an embedded channel: what it refuses, what it passes on, and the arrival it
    /// stamps.
    @Suite("LoadShedder")
    struct LoadShedderTests {
        /// A limit of one slot, no queue, and a way to fill it and free it.
        final class FullableLimit: Sendable {
            let limit = ConcurrencyLimit(maximum: 1)
            private let slot = Promise<Void>()

            func fill() { _ = limit.run { self.slot.future } }
            func free() { slot.fulfil(with: ()) }

            // Freed when the test is done with it: a promise dropped pending is reported.
            deinit { if !slot.isResolved { slot.fulfil(with: ()) } }
        }

        static func head(_ path: String = "/work", _ fields: HTTPFields = [:]) -> HTTPRequest {
            HTTPRequest(method: .get, scheme: "http", authority: "petal.test", path: path, headerFields: fields)
        }

        /// Sends one whole request (head, a body part, end) in.
        static func send(_ head: HTTPRequest, to channel: EmbeddedChannel) throws {
            try channel.writeInbound(HTTPRequestPart.head(head))
            try channel.writeInbound(HTTPRequestPart.body(ByteBuffer(string: "payload")))
            try channel.writeInbound(HTTPRequestPart.end(nil))
        }

        /// The request parts passed on so far.
        static func passed(_ channel: EmbeddedChannel) throws -> [HTTPRequestPart] {
            var parts: [HTTPRequestPart] = []
            while let part = try channel.readInbound(as: HTTPRequestPart.self) { parts.append(part) }
            return parts
        }

        /// The response parts written so far.
        static func written(_ channel: EmbeddedChannel) throws -> [HTTPResponsePart] {
            var parts: [HTTPResponsePart] = []
            while let part = try channel.readOutbound(as: HTTPResponsePart.self) { parts.append(part) }
            return parts
        }

        @Test("while the limit has room every request is passed on whole, and nothing is written")
        func passesWhileRoom() throws {
            let limit = FullableLimit()
            let channel = EmbeddedChannel(handler: LoadShedder(limit: limit.limit))
            try Self.send(Self.head(), to: channel)
            let parts = try Self.passed(channel)
            #expect(parts.count == 3)
            #expect(try Self.written(channel).isEmpty)
            _ = try channel.finish()
        }

        @Test("while the limit is full a request is answered 503 on the loop, and none of it is passed on")
        func refusesWhileFull() throws {
            let limit = FullableLimit()
            limit.fill()
            let channel = EmbeddedChannel(handler: LoadShedder(limit: limit.limit))
            try Self.send(Self.head(), to: channel)
            #expect(try Self.passed(channel).isEmpty)
            let response = try Self.written(channel)
            #expect(response.count == 3)
            guard case .head(let head) = response.first, case .body(let body) = response.dropFirst().first,
                case .end = response.last
            else {
                Issue.record("not a whole response: \(response)")
                return
            }
            #expect(head.status == .serviceUnavailable)
            #expect(head.headerFields[.contentLength] == String(body.readableBytes))
            // Room again: the next request goes through.
            limit.free()
            try Self.send(Self.head(), to: channel)
            #expect(try Self.passed(channel).count == 3)
            _ = try channel.finish()
        }

        @Test("a request the predicate spares is passed on while the limit is full")
        func sparesWhatThePredicateSpares() throws {
            let limit = FullableLimit()
            limit.fill()
            let shedder = LoadShedder(limit: limit.limit, sheddable: { $0.path?.hasPrefix("/work") == true })
            let channel = EmbeddedChannel(handler: shedder)
            try Self.send(Self.head("/health"), to: channel)
            #expect(try Self.passed(channel).count == 3)
            // Answered, so that the next request is not pipelined behind it.
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
            #expect(try Self.written(channel).count == 2)
            try Self.send(Self.head("/work/1"), to: channel)
            #expect(try Self.passed(channel).isEmpty)
            #expect(try Self.written(channel).count == 3)
            _ = try channel.finish()
        }

        @Test("with a response outstanding a request is passed on even while full: responses keep their order")
        func pipeliningRule() throws {
            let limit = FullableLimit()
            let channel = EmbeddedChannel(handler: LoadShedder(limit: limit.limit))
            try Self.send(Self.head(), to: channel)
            limit.fill()
            // Pipelined behind the first, whose response has not been written.
            try Self.send(Self.head(), to: channel)
            #expect(try Self.passed(channel).count == 6)
            #expect(try Self.written(channel).isEmpty)
            // The server answers both: then the next is refused.
            for _ in 0..<2 {
                try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
                try channel.writeOutbound(HTTPResponsePart.end(nil))
            }
            #expect(try Self.written(channel).count == 4)
            try Self.send(Self.head(), to: channel)
            #expect(try Self.passed(channel).isEmpty)
            let refusal = try Self.written(channel)
            guard case .head(let head) = refusal.first else {
                Issue.record("no refusal: \(refusal)")
                return
            }
            #expect(head.status == .serviceUnavailable)
            _ = try channel.finish()
        }

        @Test("each request passed on is stamped with its arrival, read on the shedder's clock")
        func stampsArrival() throws {
            let clock = DeadlineClock.manual()
            let channel = EmbeddedChannel(handler: LoadShedder(limit: FullableLimit().limit, clock: clock))
            for step in 1...3 {
                clock.advance(by: .milliseconds(step))
                let arrival = clock.now
                try Self.send(Self.head(), to: channel)
                guard case .head(let head) = try Self.passed(channel).first else {
                    Issue.record("no head passed on")
                    return
                }
                #expect(RequestArrival.instant(in: head.headerFields) == arrival)
            }
            _ = try channel.finish()
        }

        @Test("a client's petal-arrival fields are removed before the stamp: an arrival cannot be forged")
        func stripsForgedStamps() throws {
            let clock = DeadlineClock.manual()
            let channel = EmbeddedChannel(handler: LoadShedder(limit: FullableLimit().limit, clock: clock))
            var forged = HTTPFields()
            forged.append(HTTPField(name: RequestArrival.fieldName, value: "0"))
            forged.append(HTTPField(name: .accept, value: "*/*"))
            forged.append(HTTPField(name: RequestArrival.fieldName, value: "-99999999999"))
            try Self.send(Self.head("/work", forged), to: channel)
            guard case .head(let head) = try Self.passed(channel).first else {
                Issue.record("no head passed on")
                return
            }
            #expect(head.headerFields[values: RequestArrival.fieldName].count == 1)
            #expect(RequestArrival.instant(in: head.headerFields) == clock.now)
            #expect(head.headerFields[.accept] == "*/*")
            _ = try channel.finish()
        }

        @Test("onShed is called once per refusal with the refused head, and the refusal is the one configured")
        func onShedAndConfiguredRefusal() throws {
            let limit = FullableLimit()
            limit.fill()
            let shed = Tally()
            let refusal = LoadShedder.Refusal(
                status: .tooManyRequests, headerFields: [.retryAfter: "1"], body: ByteBuffer(string: "later"))
            let shedder = LoadShedder(
                limit: limit.limit, refusal: refusal,
                onShed: { head in if head.path == "/work" { shed.add() } })
            let channel = EmbeddedChannel(handler: shedder)
            for _ in 0..<5 { try Self.send(Self.head(), to: channel) }
            #expect(shed.value == 5)
            let written = try Self.written(channel)
            #expect(written.count == 15)
            guard case .head(let head) = written.first else {
                Issue.record("no refusal")
                return
            }
            #expect(head.status == .tooManyRequests)
            #expect(head.headerFields[.retryAfter] == "1")
            #expect(head.headerFields[.contentLength] == "5")
            _ = try channel.finish()
        }

        @Test(
            "only a stamp's own form is read as an arrival",
            arguments: ["", "-", "abc", "1 2", "+12", "--1", "1.5", "99999999999999999999", "١٢"])
        func readsOnlyStamps(text: String) {
            // (Spaces around a value are not tried: HTTPFields trims them, as HTTP defines.)
            #expect(RequestArrival.instant(in: [RequestArrival.fieldName: text]) == nil)
        }
    }
#endif
