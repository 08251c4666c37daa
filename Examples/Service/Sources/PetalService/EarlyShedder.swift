import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Petal

/// Refuses `limited` requests on the event loop, before they reach Hummingbird's router, while
/// the limit and its queue are full: the 503 is written from here, with no task, no routing and
/// no hop off the loop.
///
/// Why: under overload the server spends its CPU on the requests it refuses (wrk's clients ask
/// again at once), and what that costs comes out of the latency of the requests it admitted. A
/// refusal that goes through the whole pipeline (a task resumed on Swift's executor, the router,
/// the handler, the response's way back to the loop) costs several times one answered here.
///
/// A look at the limit's counts is only a hint (a slot may free just after): a request let
/// through still goes through `ConcurrencyLimit.run`, which decides, and may refuse it there.
/// Only a connection with no response outstanding is answered here, so that responses keep the
/// order of their requests on a pipelining connection.
final class EarlyShedder: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private static let path = "/fanout/\(Variant.limited.name)"
    private static let body = #"{"error": "over the concurrency limit"}"# + "\n"

    private let limit: ConcurrencyLimit
    private let counters: VariantCounters
    /// Requests passed on whose response has not ended yet.
    private var outstanding = 0
    /// Whether the request being read is refused (its parts are dropped until its end).
    private var refusing = false

    init(limit: ConcurrencyLimit, counters: VariantCounters) {
        self.limit = limit
        self.counters = counters
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            if outstanding == 0, limit.isFull, let path = head.path, path.hasPrefix(Self.path) {
                refusing = true
                return
            }
            outstanding += 1
        case .body:
            if refusing { return }
        case .end:
            if refusing {
                refusing = false
                refuse(context: context)
                return
            }
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { outstanding -= 1 }
        context.write(data, promise: promise)
    }

    private func refuse(context: ChannelHandlerContext) {
        VariantCounters.increment(counters.shed)
        let body = ByteBuffer(string: Self.body)
        let head = HTTPResponse(
            status: .serviceUnavailable,
            headerFields: [.contentType: "application/json", .contentLength: "\(body.readableBytes)"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}
