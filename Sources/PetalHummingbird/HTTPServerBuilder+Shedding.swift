// The whole module is the Hummingbird trait's: without it, this target compiles to nothing and
// Hummingbird is neither resolved nor built.
#if Hummingbird
    import HTTPTypes
    import HummingbirdCore
    import Petal
    import PetalNIO

    extension HTTPServerBuilder {
        /// An HTTP/1.1 server whose connections each run a PetalNIO `LoadShedder` for `limit`:
        /// requests refused on the event loop while the limit is full, before they reach the
        /// router, and every request let through stamped with its arrival (which
        /// ``DeadlineMiddleware`` counts a request's budget from).
        ///
        /// ```swift
        /// let app = Application(router: router, server: .http1(shedding: limit))
        /// ```
        ///
        /// The shedder comes first of the configuration's `additionalChannelHandlers`, so that
        /// they see only the requests let through, stamped. The parameters are the shedder's
        /// (see `LoadShedder.init(limit:refusal:sheddable:onShed:clock:)`); the closures run on
        /// the connection's event loop.
        ///
        /// - Parameters:
        ///   - limit: The limit the routes it guards run their work through.
        ///   - refusal: The response a refused request gets: 503 by default.
        ///   - sheddable: Whether a request may be refused, given its head: all by default.
        ///   - onShed: Called with each refused request's head, just before its refusal is written.
        ///   - configuration: The HTTP/1.1 channel's configuration, as `.http1(configuration:)`
        ///     takes it.
        public static func http1(
            shedding limit: ConcurrencyLimit,
            refusal: LoadShedder.Refusal = LoadShedder.Refusal(),
            sheddable: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
            onShed: (@Sendable (HTTPRequest) -> Void)? = nil,
            configuration: HTTP1Channel.Configuration = .init()
        ) -> HTTPServerBuilder {
            var configuration = configuration
            configuration.addLoadShedder(limit: limit, refusal: refusal, sheddable: sheddable, onShed: onShed)
            return .http1(configuration: configuration)
        }
    }

    extension HTTP1Channel.Configuration {
        /// Puts a PetalNIO `LoadShedder` for `limit` first of `additionalChannelHandlers`, a
        /// new one for each connection: for a server built from the configuration some other way
        /// than ``HTTPServerBuilder/http1(shedding:refusal:sheddable:onShed:configuration:)``
        /// (a TLS one, say).
        ///
        /// The parameters are the shedder's (see `LoadShedder.init(limit:refusal:sheddable:onShed:clock:)`).
        public mutating func addLoadShedder(
            limit: ConcurrencyLimit,
            refusal: LoadShedder.Refusal = LoadShedder.Refusal(),
            sheddable: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
            onShed: (@Sendable (HTTPRequest) -> Void)? = nil
        ) {
            let others = additionalChannelHandlers
            // Called once per connection: a shedder counts one connection's responses.
            additionalChannelHandlers = {
                [LoadShedder(limit: limit, refusal: refusal, sheddable: sheddable, onShed: onShed)] + others()
            }
        }
    }
#endif
