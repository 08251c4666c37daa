import CBenchSupport
import Dispatch
import Foundation
import Synchronization

/// The state of the lock-based designs (PromiseKit, BrightFutures, Daisy): a value, or the
/// callbacks waiting for it.
public struct LockedState {
    var value: Int?
    var callbacks: [@Sendable (Int) -> Void] = []

    /// Subscribes under the lock; returns the value if the callback must run now, outside it.
    mutating func subscribe(_ callback: @escaping @Sendable (Int) -> Void) -> Int? {
        if let value { return value }
        callbacks.append(callback)
        return nil
    }

    /// Fulfils under the lock; returns the callbacks to run outside it, or nil if already fulfilled.
    mutating func fulfil(_ value: Int) -> [@Sendable (Int) -> Void]? {
        guard self.value == nil else { return nil }
        self.value = value
        defer { callbacks = [] }
        return callbacks
    }
}

/// A promise guarded by `Synchronization.Mutex`.
public final class MutexPromise: Sendable {
    let state = Mutex(LockedState())

    public init() {}

    public func subscribe(_ callback: @escaping @Sendable (Int) -> Void) {
        if let value = state.withLock({ $0.subscribe(callback) }) { callback(value) }
    }

    public func fulfil(_ value: Int) -> Bool {
        guard let callbacks = state.withLock({ $0.fulfil(value) }) else { return false }
        for callback in callbacks { callback(value) }
        return true
    }
}

/// A promise guarded by `NSLock`.
public final class NSLockPromise: @unchecked Sendable {
    // @unchecked: `state` is only touched with `lock` held.
    let lock = NSLock()
    var state = LockedState()

    public init() {}

    public func subscribe(_ callback: @escaping @Sendable (Int) -> Void) {
        lock.lock()
        let value = state.subscribe(callback)
        lock.unlock()
        if let value { callback(value) }
    }

    public func fulfil(_ value: Int) -> Bool {
        lock.lock()
        let callbacks = state.fulfil(value)
        lock.unlock()
        guard let callbacks else { return false }
        for callback in callbacks { callback(value) }
        return true
    }
}

/// A promise whose state is confined to a serial `DispatchQueue` (reached with `sync`).
public final class QueuePromise: @unchecked Sendable {
    // @unchecked: `state` is only touched on `queue`.
    let queue = DispatchQueue(label: "petal.bench.queue-promise")
    var state = LockedState()

    public init() {}

    public func subscribe(_ callback: @escaping @Sendable (Int) -> Void) {
        if let value = queue.sync(execute: { state.subscribe(callback) }) { callback(value) }
    }

    public func fulfil(_ value: Int) -> Bool {
        guard let callbacks = queue.sync(execute: { state.fulfil(value) }) else { return false }
        for callback in callbacks { callback(value) }
        return true
    }
}

/// The promises with these three calls on `Int`: the lock-based ones, each the design of a
/// library users pick instead of Petal, and the generic designs of `LibraryPromises`.
public protocol LockedPromise: AnyObject, Sendable {
    /// The name in tables and plots.
    static var contenderName: String { get }
    init()
    func subscribe(_ callback: @escaping @Sendable (Int) -> Void)
    func fulfil(_ value: Int) -> Bool
    /// Whether the design's promises hold any value, so that its users can fan promises in by
    /// hand (`Contender.fansIn`): only the generic designs'.
    static var fansIn: Bool { get }
    /// `Contender.runFulfillingWhen`, for designs that fan in.
    static func runFulfillingWhen(width: Int, value: Int)
}

extension LockedPromise {
    public static var fansIn: Bool { false }
    public static func runFulfillingWhen(width: Int, value: Int) {
        fatalError("\(contenderName) holds only integers: it cannot fan promises in")
    }
}

extension MutexPromise: LockedPromise {
    public static let contenderName = "Mutex"
}

extension NSLockPromise: LockedPromise {
    public static let contenderName = "NSLock"
}

extension QueuePromise: LockedPromise {
    public static let contenderName = "DispatchQueue"
}

/// One adapter for every lock-based promise, and for the generic designs of `LibraryPromises`.
public enum LockedContender<Promise: LockedPromise>: Contender {
    public static var name: String { Promise.contenderName }
    public static func make() -> Promise { Promise() }
    public static func subscribeCounting(_ handle: Promise) { handle.subscribe { _ in bench_count_add() } }
    public static func subscribe(_ handle: Promise, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.subscribe(callback)
    }
    public static func subscribeCapturing(_ handle: Promise, _ subscriber: Subscriber) {
        handle.subscribe { subscriber.receive($0) }
    }
    public static func subscribeCapturingThree(_ handle: Promise, _ subscriber: Subscriber, index: Int, tag: RequestTag)
    {
        handle.subscribe { subscriber.receive($0, index: index, tag: tag) }
    }
    public static func subscribeForwarding(_ handle: Promise, to next: Promise) {
        handle.subscribe { _ = next.fulfil($0) }
    }
    @discardableResult
    public static func fulfil(_ handle: Promise, with value: Int) -> Bool { handle.fulfil(value) }
    public static var fansIn: Bool { Promise.fansIn }
    public static func runFulfillingWhen(width: Int, value: Int) {
        Promise.runFulfillingWhen(width: width, value: value)
    }
}
