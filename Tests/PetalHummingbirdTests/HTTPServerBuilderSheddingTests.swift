#if Hummingbird
    import HTTPTypes
    import HummingbirdCore
    import Logging
    import NIOCore
    import NIOEmbedded
    import NIOHTTPTypes
    import Petal
    import PetalHummingbird
    import PetalNIO
    import Testing

    /// `.http1(shedding:)` and `addLoadShedder`: the shedder is in the handlers Hummingbird adds to each connection,
    /// first, one per connection, and the configuration's own handlers follow it.
    @Suite("HTTPServerBuilder.http1(shedding:)")
    struct HTTPServerBuilderSheddingTests {
        /// A handler of the configuration's own, that marks what it sees.
        final class Marker: ChannelInboundHandler, RemovableChannelHandler {
            typealias InboundIn = HTTPRequestPart
        }

        @Test("each connection gets a shedder of its own, before the configuration's handlers")
        func installsShedderFirst() throws {
            var configuration = HTTP1Channel.Configuration(additionalChannelHandlers: [Marker()])
            configuration.idleTimeout = .seconds(5)
            var installed = configuration
            installed.addLoadShedder(limit: ConcurrencyLimit(maximum: 1))
            let first = installed.additionalChannelHandlers()
            let second = installed.additionalChannelHandlers()
            #expect(first.count == 2)
            #expect(first.first is LoadShedder)
            #expect(first.last is Marker)
            #expect(first.first !== second.first)
            #expect(installed.idleTimeout == .seconds(5))
        }

        @Test("the one-call install builds a server builder, as .http1(configuration:) does")
        func oneCallInstallBuilds() {
            // What it builds is opaque (a closure over the responder); the configuration it
            // passes on is the one tested above.
            _ = HTTPServerBuilder.http1(shedding: ConcurrencyLimit(maximum: 1), onShed: { _ in })
        }

        @Test(
            "in Hummingbird's own HTTP/1.1 pipeline, a request is refused with 503 on the loop while the limit is full")
        func shedsInHummingbirdsPipeline() throws {
            let limit = ConcurrencyLimit(maximum: 1)
            let slot = Promise<Void>()
            defer { slot.fulfil(with: ()) }
            _ = limit.run { slot.future }
            var configuration = HTTP1Channel.Configuration()
            configuration.addLoadShedder(limit: limit, refusal: .init(headerFields: [.retryAfter: "1"]))
            // The responder is never reached: the shedder answers before Hummingbird's handler.
            let server = HTTP1Channel(responder: { _, _, _ in }, configuration: configuration)
            let channel = EmbeddedChannel()
            _ = try server.setup(channel: channel, logger: Logger(label: "HTTPServerBuilderSheddingTests")).wait()
            try channel.writeInbound(ByteBuffer(string: "GET /work HTTP/1.1\r\nHost: petal.test\r\n\r\n"))
            var written = ""
            while let buffer = try channel.readOutbound(as: ByteBuffer.self) { written += String(buffer: buffer) }
            #expect(written.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
            #expect(written.lowercased().contains("retry-after: 1\r\n"))
            #expect(written.hasSuffix("over the concurrency limit\n"))
            _ = try? channel.finish()
        }
    }
#endif
