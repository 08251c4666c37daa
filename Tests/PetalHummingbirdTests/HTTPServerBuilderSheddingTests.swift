#if Hummingbird
    import HTTPTypes
    import HummingbirdCore
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
    }
#endif
