import Hummingbird
import NIOCore

/// The request context: Hummingbird's own, plus the event loop of the request's connection.
///
/// The backends' timers run on that loop, as a real client's I/O would run on the loop its
/// connection belongs to; Hummingbird hands the channel to the context's initialiser and nowhere
/// else, so the loop is kept here.
struct FanoutContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The event loop of the connection the request came in on.
    let eventLoop: any EventLoop

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        eventLoop = source.channel.eventLoop
    }
}
