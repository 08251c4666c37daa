import CBenchSupport
import Foundation
import Synchronization

/// A promise whose waiters are Swift tasks suspended in `CheckedContinuation`s: what a user of
/// Swift concurrency writes instead of callbacks. Each subscription is a task that awaits the
/// value, so delivery is asynchronous (on the cooperative pool).
public final class ContinuationPromise: Sendable {
    struct State {
        var value: Int?
        var waiters: [CheckedContinuation<Int, Never>] = []
        var registered = 0
    }

    let state = Mutex(State())

    public init() {}

    /// Suspends until fulfilled (at once if it already is).
    public func value() async -> Int {
        await withCheckedContinuation { continuation in
            let ready: Int? = state.withLock { state in
                state.registered += 1
                if let value = state.value { return value }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// How many awaits have reached the promise.
    public var registered: Int { state.withLock { $0.registered } }

    public func fulfil(_ value: Int) -> Bool {
        let waiters: [CheckedContinuation<Int, Never>]? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [] }
            return state.waiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }
}

public enum ContinuationContender: Contender {
    public static let name = "async/await (continuations)"
    public static var deliversAsynchronously: Bool { true }

    public static func make() -> ContinuationPromise { ContinuationPromise() }

    public static func subscribe(_ handle: ContinuationPromise, _ callback: @escaping @Sendable (Int) -> Void) {
        Task { callback(await handle.value()) }
    }

    public static func subscribeCounting(_ handle: ContinuationPromise) {
        Task {
            _ = await handle.value()
            bench_count_add()
        }
    }

    public static func subscribeCapturing(_ handle: ContinuationPromise, _ subscriber: Subscriber) {
        Task { subscriber.receive(await handle.value()) }
    }

    public static func subscribeCapturingThree(
        _ handle: ContinuationPromise, _ subscriber: Subscriber, index: Int, tag: RequestTag
    ) {
        Task { subscriber.receive(await handle.value(), index: index, tag: tag) }
    }

    public static func subscribeForwarding(_ handle: ContinuationPromise, to next: ContinuationPromise) {
        Task { _ = next.fulfil(await handle.value()) }
    }

    @discardableResult
    public static func fulfil(_ handle: ContinuationPromise, with value: Int) -> Bool { handle.fulfil(value) }

    public static func settle(_ handle: ContinuationPromise, subscriptions: Int) {
        while handle.registered < subscriptions { sched_yield() }
    }
}
