import CBenchSupport
import Synchronization

/// A subscriber's own object, as a service's completion captures its request: each callback of
/// the capturing workloads captures one, records the value in it and counts only if the value
/// is the one this subscriber expects.
///
/// Real callbacks capture state: the request, the next promise, a continuation. Calling one
/// reads its closure's context and then the object it captured, and freeing the context
/// releases that object, so a drain touches two objects per callback that a counting callback
/// (which captures nothing) never has.
public final class Subscriber: Sendable {
    /// The value the promise is fulfilled with.
    public let expected: Int
    /// The value delivered, as the field of a request a completion writes: the callback writes
    /// its captured object, so the thread that runs it must own that object's cache line. A
    /// relaxed store is a plain store on x86 and ARM.
    public let received = Atomic<Int>(-1)

    public init(expecting value: Int) { expected = value }

    @inlinable
    public func receive(_ value: Int) {
        received.store(value, ordering: .relaxed)
        if value == expected { bench_count_add() }
    }

    /// What a callback that captures three values passes on: the value, and the two values it
    /// captured beside this object. Counts only if each is the one this subscriber was given, so
    /// a contender that loses or mixes up a capture cannot post a number.
    @inlinable
    public func receive(_ value: Int, index: Int, tag: RequestTag) {
        received.store(value, ordering: .relaxed)
        if value == expected && tag == RequestTag(index) { bench_count_add() }
    }

    /// A raw C core's capturing callback: `context` is the subscriber, unretained (in C the
    /// request outlives its callback; the round holds every subscriber), `payload` the value.
    @inlinable
    public static func receive(context: UnsafeMutableRawPointer?, payload: UnsafeMutableRawPointer?) {
        Unmanaged<Subscriber>.fromOpaque(context.unsafelyUnwrapped).takeUnretainedValue()
            .receive(Int(bitPattern: payload))
    }

    /// Subscribers for `threads` threads, `perThread` each, the `k`th of each expecting
    /// `expecting(k)`: made before a round is measured, as a service's requests exist before
    /// their completions are subscribed.
    static func make(threads: Int, perThread: Int, expecting: (Int) -> Int) -> [[Subscriber]] {
        (0..<threads).map { _ in (0..<perThread).map { Subscriber(expecting: expecting($0)) } }
    }

    /// The subscribers of a hot promise's round that captures them (each expecting `1`), or none
    /// when `capture` is `.nothing`.
    static func forHotPromise(_ capture: Capture, threads: Int, perThread: Int) -> [[Subscriber]] {
        capture == .nothing ? [] : make(threads: threads, perThread: perThread) { _ in 1 }
    }
}

/// A value of the request that a service's completion captures beside the request object and an
/// integer (a route and an id, two words): with it the closure needs a context of its own, which
/// a callback capturing one object does not.
public struct RequestTag: Sendable, Equatable {
    public let id: Int
    public let route: Int

    /// The tag of the `index`th subscriber of a row: what its callback captures and checks.
    @inlinable
    public init(_ index: Int) {
        id = index
        route = ~index
    }
}

/// A C embedder's context for a callback that captures three values: the subscriber
/// (unretained, as `Subscriber.receive(context:payload:)`'s), the index and the tag, in one
/// `malloc`'d block that the callback frees, as a C service allocates its completion's context.
public struct CapturedThree {
    public let subscriber: Unmanaged<Subscriber>
    public let index: Int
    public let tag: RequestTag

    @inlinable
    init(subscriber: Unmanaged<Subscriber>, index: Int, tag: RequestTag) {
        self.subscriber = subscriber
        self.index = index
        self.tag = tag
    }

    /// A context on the heap, for a C callback to pass to `deliver(context:payload:)`.
    @inlinable
    public static func allocate(_ subscriber: Subscriber, index: Int, tag: RequestTag) -> UnsafeMutableRawPointer {
        let context = UnsafeMutablePointer<CapturedThree>.allocate(capacity: 1)
        context.initialize(to: CapturedThree(subscriber: .passUnretained(subscriber), index: index, tag: tag))
        return UnsafeMutableRawPointer(context)
    }

    /// Passes the value on to the subscriber with the captured index and tag, and frees the
    /// context (a C callback runs once).
    @inlinable
    public static func deliver(context: UnsafeMutableRawPointer?, payload: UnsafeMutableRawPointer?) {
        let context = context.unsafelyUnwrapped.assumingMemoryBound(to: CapturedThree.self)
        let captured = context.move()
        context.deallocate()
        captured.subscriber.takeUnretainedValue().receive(
            Int(bitPattern: payload), index: captured.index, tag: captured.tag)
    }
}
