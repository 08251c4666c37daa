// The NIO trait's, as the rest of the module.
#if NIO
    import HTTPTypes
    import NIOCore
    import NIOHTTPTypes
    import Petal

    /// Refuses requests on the event loop, before they reach the server's router, while a
    /// `ConcurrencyLimit` and its queue are full; and stamps every request it passes on
    /// with its arrival (``RequestArrival``).
    ///
    /// Why on the loop: under overload a server spends its CPU on the requests it refuses
    /// (clients ask again at once), and what that costs comes out of the latency of the requests
    /// it admitted. A refusal that goes through the whole server (a task, the router, a handler,
    /// the response's way back to the loop) costs several times one written here, with no task
    /// and no hop off the loop.
    ///
    /// Place it after the HTTP codec, where the pipeline carries `HTTPRequestPart` and
    /// `HTTPResponsePart` (NIOHTTPTypes'; `HTTP1ToHTTPServerCodec` makes them from NIOHTTP1's
    /// parts). In Hummingbird 2, PetalHummingbird's `.http1(shedding:)` installs it in one call.
    /// It is a handler of one connection: make one per channel.
    ///
    /// What it decides, and where (all on the channel's event loop):
    /// - A request is refused when the `sheddable` predicate given to
    ///   ``init(limit:refusal:sheddable:onShed:clock:)`` accepts its head, the connection has no
    ///   response outstanding (on a pipelining connection a response written here would overtake
    ///   the earlier ones, so requests queued behind another go through), and the limit is full,
    ///   or the sheddable requests let through by every shedder of the limit and not answered yet
    ///   fill its slots and its queue. The second count is why a shedder refuses what the limit
    ///   would: one pass of the event loop reads many connections' requests before a task takes
    ///   any of them to the limit, and without it a flood's pass lets through many more than the
    ///   limit then admits, each refused through the whole server (Examples/ResilientServer
    ///   under 256 connections: 5,000 a second, and 504s answered milliseconds late behind them).
    ///   So a limit guarding part of a request's work only, with more after it, sheds a little
    ///   early: the count ends when the response does.
    /// - A refused request's body is read and dropped; the refusal is written when its end is
    ///   read, so the connection stays in step for the next request. `onShed` runs just before.
    /// - A look at the limit is a hint (a slot may free just after it): a request let through
    ///   must still run through `ConcurrencyLimit.run`, which decides, and may refuse it there.
    ///
    /// Every request passed on has its `petal-arrival` fields, which only this handler may set,
    /// replaced by the instant its head was read (on `clock`): a client cannot forge its arrival.
    public final class LoadShedder: ChannelDuplexHandler, RemovableChannelHandler {
        /// The request parts read from the codec.
        public typealias InboundIn = HTTPRequestPart
        /// The request parts passed on: those of the requests not refused, stamped.
        public typealias InboundOut = HTTPRequestPart
        /// The response parts written by the server.
        public typealias OutboundIn = HTTPResponsePart
        /// The response parts passed to the codec: the server's and the refusals.
        public typealias OutboundOut = HTTPResponsePart

        /// The response a refused request gets.
        public struct Refusal: Sendable {
            /// The status: 503 Service Unavailable unless set.
            public var status: HTTPResponse.Status
            /// The header fields (a `Retry-After`, say). `Content-Length` is set from ``body``
            /// when absent.
            public var headerFields: HTTPFields
            /// The body.
            public var body: ByteBuffer

            /// A refusal with `status`, `headerFields` and `body`; by default a 503 with a
            /// one-line plain-text body.
            public init(
                status: HTTPResponse.Status = .serviceUnavailable,
                headerFields: HTTPFields = [.contentType: "text/plain; charset=utf-8"],
                body: ByteBuffer = ByteBuffer(string: "over the concurrency limit\n")
            ) {
                self.status = status
                self.headerFields = headerFields
                self.body = body
                if self.headerFields[.contentLength] == nil {
                    self.headerFields[.contentLength] = String(body.readableBytes)
                }
            }
        }

        private let limit: ConcurrencyLimit
        private let refusal: Refusal
        private let sheddable: @Sendable (HTTPRequest) -> Bool
        private let onShed: (@Sendable (HTTPRequest) -> Void)?
        private let clock: DeadlineClock
        /// Requests passed on whose response has not ended yet.
        private var outstanding = 0
        /// Of the requests passed on and not answered, in order, whether each is counted in the
        /// limit's arrivals (sheddable ones are).
        private var counted = CircularBuffer<Bool>(initialCapacity: 1)
        /// The head of the request being refused: its parts are dropped until its end.
        private var refusing: HTTPRequest?

        /// A shedder of one connection for `limit`.
        ///
        /// - Parameters:
        ///   - limit: The limit whose fullness refuses requests; shared by every connection
        ///     and by the handlers that run requests through it.
        ///   - refusal: The response a refused request gets.
        ///   - sheddable: Whether a request may be refused, given its head (its path, say: the
        ///     routes the limit guards), and so counted against the limit; all by default. Runs
        ///     on the event loop, once per request: keep it cheap.
        ///   - onShed: Called on the event loop with the head of each refused request, just
        ///     before its refusal is written: for counting.
        ///   - clock: The clock the arrival stamp is read on (a manual one in tests).
        public init(
            limit: ConcurrencyLimit,
            refusal: Refusal = Refusal(),
            sheddable: @escaping @Sendable (HTTPRequest) -> Bool = { _ in true },
            onShed: (@Sendable (HTTPRequest) -> Void)? = nil,
            clock: DeadlineClock = .continuous
        ) {
            self.limit = limit
            self.refusal = refusal
            self.sheddable = sheddable
            self.onShed = onShed
            self.clock = clock
        }

        /// Refuses or passes on each part of a request (see ``LoadShedder``).
        public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(var head):
                let isSheddable = sheddable(head)
                if isSheddable {
                    if outstanding > 0 {
                        limit.countArrival()
                    } else if !limit.admitsArrival() {
                        refusing = head
                        return
                    }
                }
                outstanding += 1
                counted.append(isSheddable)
                RequestArrival.stamp(clock.now, into: &head.headerFields)
                context.fireChannelRead(wrapInboundOut(.head(head)))
            case .body:
                if refusing == nil { context.fireChannelRead(data) }
            case .end:
                guard let head = refusing else { return context.fireChannelRead(data) }
                refusing = nil
                onShed?(head)
                refuse(context: context)
            }
        }

        /// Counts the end of each response the server writes, for the pipelining rule.
        public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data), outstanding > 0 {
                outstanding -= 1
                if counted.removeFirst() { limit.arrivalAnswered() }
            }
            context.write(data, promise: promise)
        }

        /// Uncounts the requests whose responses will not pass here: the connection closed
        /// (or the handler removed) before they were written.
        public func handlerRemoved(context: ChannelHandlerContext) {
            let uncounted = counted.reduce(0) { $0 + ($1 ? 1 : 0) }
            if uncounted > 0 { limit.arrivalAnswered(uncounted) }
            counted.removeAll()
            outstanding = 0
        }

        private func refuse(context: ChannelHandlerContext) {
            let head = HTTPResponse(status: refusal.status, headerFields: refusal.headerFields)
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if refusal.body.readableBytes > 0 {
                context.write(wrapOutboundOut(.body(refusal.body)), promise: nil)
            }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    // A channel handler belongs to its channel's event loop.
    @available(*, unavailable)
    extension LoadShedder: Sendable {}
#endif
