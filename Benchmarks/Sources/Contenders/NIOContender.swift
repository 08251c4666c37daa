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

    public static func subscribe(_ handle: EventLoopPromise<Int>, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.futureResult.whenSuccess(callback)
    }

    public static func subscribeCapturing(_ handle: EventLoopPromise<Int>, _ subscriber: Subscriber) {
        handle.futureResult.whenSuccess { subscriber.receive($0) }
    }

    public static func subscribeCapturingThree(
        _ handle: EventLoopPromise<Int>, _ subscriber: Subscriber, index: Int, tag: RequestTag
    ) {
        handle.futureResult.whenSuccess { subscriber.receive($0, index: index, tag: tag) }
    }

    public static func subscribeForwarding(_ handle: EventLoopPromise<Int>, to next: EventLoopPromise<Int>) {
        handle.futureResult.whenSuccess { next.succeed($0) }
    }

    /// Subscriptions from foreign threads are tasks queued on the loop: once a task submitted
    /// after them has run, they have all been applied.
    public static func settle(_ handle: EventLoopPromise<Int>, subscriptions: Int) {
        onLoop {}
    }

    public static func escape(_ handle: EventLoopPromise<Int>) {
        bench_escape(Unmanaged.passUnretained(handle.futureResult).toOpaque())
    }

    @discardableResult
    public static func fulfil(_ handle: EventLoopPromise<Int>, with value: Int) -> Bool {
        handle.succeed(value)
        return true
    }

    /// `map` steps, NIO's `then`: from a foreign thread each one hops to the loop to subscribe.
    public static func runChain(links: Int, value: Int) {
        nioChain(links: links, value: value)
    }
}

/// A chain of NIO `map` steps, counted at the tail if the total is right.
func nioChain(links: Int, value: Int) {
    let head = NIOForeignContender.make()
    var tail = head.futureResult
    for _ in 0..<links { tail = tail.map { $0 + 1 } }
    let expected = value + links
    tail.whenSuccess { if $0 == expected { bench_count_add() } }
    head.succeed(value)
}

/// swift-nio's `EventLoopPromise` with all work on its own loop, where NIO is at its best: each
/// worker's share of a round runs as one task on the loop, so every subscribe, fulfil and callback
/// is a same-thread call. Only rounds that are wholly such shares, on one thread, fit.
public enum NIOOnLoopContender: Contender {
    public static let name = "NIO (on its loop)"
    public static var reportsWinner: Bool { false }
    public static var onlyWholeJobsOnOneThread: Bool { true }

    public static func perform(_ job: @escaping @Sendable () -> Void) {
        onLoop(job)
    }

    public static func make() -> EventLoopPromise<Int> { NIOForeignContender.make() }
    public static func subscribeCounting(_ handle: EventLoopPromise<Int>) {
        NIOForeignContender.subscribeCounting(handle)
    }
    public static func subscribe(_ handle: EventLoopPromise<Int>, _ callback: @escaping @Sendable (Int) -> Void) {
        NIOForeignContender.subscribe(handle, callback)
    }
    public static func subscribeCapturing(_ handle: EventLoopPromise<Int>, _ subscriber: Subscriber) {
        NIOForeignContender.subscribeCapturing(handle, subscriber)
    }
    public static func subscribeCapturingThree(
        _ handle: EventLoopPromise<Int>, _ subscriber: Subscriber, index: Int, tag: RequestTag
    ) {
        NIOForeignContender.subscribeCapturingThree(handle, subscriber, index: index, tag: tag)
    }
    public static func subscribeForwarding(_ handle: EventLoopPromise<Int>, to next: EventLoopPromise<Int>) {
        NIOForeignContender.subscribeForwarding(handle, to: next)
    }
    @discardableResult
    public static func fulfil(_ handle: EventLoopPromise<Int>, with value: Int) -> Bool {
        NIOForeignContender.fulfil(handle, with: value)
    }
    public static func escape(_ handle: EventLoopPromise<Int>) { NIOForeignContender.escape(handle) }
    public static func runChain(links: Int, value: Int) { nioChain(links: links, value: value) }
    public static var chainsAcrossNIO: Bool { true }
    /// On the loop, `map` steps run as the head completes: the chain NIO's users write.
    public static func runChainAcrossNIO(links: Int, value: Int) { nioChain(links: links, value: value) }
}

/// Runs `job` on the benchmark's event loop and waits for it; a loop that cannot run work ends the
/// benchmark, since no figure measured without it would mean anything.
func onLoop(_ job: @escaping @Sendable () -> Void) {
    do {
        try NIOForeignContender.loop.submit(job).wait()
    } catch {
        fatalError("the NIO event loop could not run a benchmark task: \(error)")
    }
}
