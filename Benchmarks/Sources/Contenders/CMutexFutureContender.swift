import CBenchFutures
import CBenchSupport

/// A C future behind a pthread mutex (`CBenchFutures/bench_mutex_future.c`), as a C embedder
/// writes one without Petal, driven from Swift as ``RawCoreContender`` drives `petal_future`:
/// C calls with C callbacks, so the C API's row compares C with C.
public enum CMutexFutureContender: Contender {
    public static let name = "C mutex future"

    /// A C pointer made shareable: the future synchronises itself.
    public struct Handle: @unchecked Sendable {
        @usableFromInline let future: OpaquePointer
        @inlinable init(_ future: OpaquePointer) { self.future = future }
    }

    @inlinable
    public static func make() -> Handle { Handle(bench_mutex_future_new()) }

    @inlinable
    public static func subscribeCounting(_ handle: Handle) {
        _ = bench_mutex_future_subscribe(handle.future, bench_mutex_future_count, nil)
    }

    /// A C user's capturing callback, as `RawCoreContender.subscribeCapturing`.
    @inlinable
    public static func subscribeCapturing(_ handle: Handle, _ subscriber: Subscriber) {
        _ = bench_mutex_future_subscribe(
            handle.future,
            { future, context in Subscriber.receive(context: context, payload: bench_mutex_future_payload(future)) },
            Unmanaged.passUnretained(subscriber).toOpaque())
    }

    /// A C user's callback with a context of its own (`CapturedThree`), as the C core's.
    @inlinable
    public static func subscribeCapturingThree(_ handle: Handle, _ subscriber: Subscriber, index: Int, tag: RequestTag)
    {
        _ = bench_mutex_future_subscribe(
            handle.future,
            { future, context in CapturedThree.deliver(context: context, payload: bench_mutex_future_payload(future)) },
            CapturedThree.allocate(subscriber, index: index, tag: tag))
    }

    @inlinable
    public static func subscribeForwarding(_ handle: Handle, to next: Handle) {
        _ = bench_mutex_future_subscribe(
            handle.future, bench_mutex_future_forward, UnsafeMutableRawPointer(next.future))
    }

    @inlinable
    @discardableResult
    public static func fulfil(_ handle: Handle, with value: Int) -> Bool {
        bench_mutex_future_fulfil(handle.future, UnsafeMutableRawPointer(bitPattern: value))
    }

    @inlinable
    public static func release(_ handle: Handle) { bench_mutex_future_free(handle.future) }

    /// malloc'd memory is on the heap whatever the optimiser sees.
    @inlinable
    public static func escape(_ handle: Handle) {}
}
