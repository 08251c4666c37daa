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
}
