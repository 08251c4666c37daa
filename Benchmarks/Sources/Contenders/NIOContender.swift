import CBenchSupport
import NIOCore
import NIOPosix

/// swift-nio's `EventLoopPromise` with producers and consumers on other threads than the loop:
/// every subscribe and fulfil from a foreign thread hops to the loop, and callbacks run there.
public enum NIOForeignContender: Contender {
    public static let name = "NIO (foreign threads)"
    public static let loop = MultiThreadedEventLoopGroup.singleton.next()
    public static var deliversAsynchronously: Bool { true }
    /// `succeed` does not say whether it won, so single-assignment races cannot be checked.
    public static var reportsWinner: Bool { false }

    public static func make() -> EventLoopPromise<Int> { loop.makePromise(of: Int.self) }

    public static func subscribeCounting(_ handle: EventLoopPromise<Int>) {
        handle.futureResult.whenSuccess { _ in bench_count_add() }
    }

    public static func subscribeForwarding(_ handle: EventLoopPromise<Int>, to next: EventLoopPromise<Int>) {
        handle.futureResult.whenSuccess { next.succeed($0) }
    }

    public static func escape(_ handle: EventLoopPromise<Int>) {
        bench_escape(Unmanaged.passUnretained(handle.futureResult).toOpaque())
    }

    @discardableResult
    public static func fulfil(_ handle: EventLoopPromise<Int>, with value: Int) -> Bool {
        handle.succeed(value)
        return true
    }
}
