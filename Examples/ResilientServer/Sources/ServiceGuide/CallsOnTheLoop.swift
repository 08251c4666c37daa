import NIOCore
import Petal
import PetalNIO

/// The guide's fan-out made on the backends' event loop.
func fanOutOnTheLoop(to backends: [Backend], on loop: any EventLoop) async throws -> [Int] {
    // snippet: start-following
    let reply = Future.startFollowing(on: .eventLoop(loop)) {
        Future.fulfillingWhen(backends.map { $0.call(on: loop) }).timeout(after: .milliseconds(20))
    }
    let sums = try await reply.value(cancellingUpstream: true)
    // snippet end
    return sums
}
