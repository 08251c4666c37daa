import CBenchSupport
import NIOCore
import Petal
import PetalNIO

/// Petal itself, through its public API.
public enum PetalContender: Contender {
    public static let name = "Petal"

    /// Nothing to prepare: the fulfil race runs with the default diagnostics, as a user's code
    /// does. Its losing resolutions are counted, and reported once per creation site (one line
    /// in the benchmark's log) by a writer thread, so they cost the racing threads a count.
    public static func prepare() {}

    @inlinable
    public static func make() -> Promise<Int> { Promise<Int>() }

    @inlinable
    public static func subscribeCounting(_ handle: Promise<Int>) {
        handle.future.whenFulfilled { _ in bench_count_add() }
    }

    @inlinable
    public static func subscribe(_ handle: Promise<Int>, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.future.whenFulfilled(callback)
    }

    @inlinable
    public static func subscribeCapturing(_ handle: Promise<Int>, _ subscriber: Subscriber) {
        handle.future.whenFulfilled { subscriber.receive($0) }
    }

    @inlinable
    public static func subscribeCapturingThree(
        _ handle: Promise<Int>, _ subscriber: Subscriber, index: Int, tag: RequestTag
    ) {
        handle.future.whenFulfilled { subscriber.receive($0, index: index, tag: tag) }
    }

    @inlinable
    public static func subscribeForwarding(_ handle: Promise<Int>, to next: Promise<Int>) {
        handle.future.whenFulfilled { next.fulfil(with: $0) }
    }

    @inlinable
    @discardableResult
    public static func fulfil(_ handle: Promise<Int>, with value: Int) -> Bool {
        handle.fulfil(with: value)
    }

    /// `then` steps: one allocation each, the chained future holding the closure.
    @inlinable
    public static func runChain(links: Int, value: Int) {
        let head = Promise<Int>()
        var tail = head.future
        for _ in 0..<links { tail = tail.then { $0 + 1 } }
        let expected = value + links
        tail.whenFulfilled { if $0 == expected { bench_count_add() } }
        head.fulfil(with: value)
    }

    public static var fansIn: Bool { true }

    /// The combinator, on the inputs' futures as a user passes them.
    @inlinable
    public static func runFulfillingWhen(width: Int, value: Int) {
        let inputs = (0..<width).map { _ in Promise<Int>() }
        let last = value + width - 1
        Future.fulfillingWhen(inputs.map(\.future)).whenFulfilled { values in
            if values.count == width && values.first == value && values.last == last { bench_count_add() }
        }
        for (index, input) in inputs.enumerated() { input.fulfil(with: value + index) }
    }

    /// The combinator, on the inputs' futures as a user passes them.
    @inlinable
    public static func runRace(width: Int, value: Int) {
        let inputs = (0..<width).map { _ in Promise<Int>() }
        Future.firstResolved(of: inputs.map(\.future)).whenFulfilled { _ in bench_count_add() }
        for (index, input) in inputs.enumerated() { input.fulfil(with: value + index) }
    }

    public static var chainsAcrossNIO: Bool { true }

    /// Into Petal with `Future(_:)`, `then` steps, and out with `eventLoopFuture(on:)`. The steps
    /// run inline: the Petal future resolves on the loop, so they run there.
    public static func runChainAcrossNIO(links: Int, value: Int) {
        let loop = NIOForeignContender.loop
        let head = loop.makePromise(of: Int.self)
        var tail = Future(head.futureResult)
        for _ in 0..<links { tail = tail.then { $0 + 1 } }
        let expected = value + links
        tail.eventLoopFuture(on: loop).whenSuccess { if $0 == expected { bench_count_add() } }
        head.succeed(value)
    }
}
