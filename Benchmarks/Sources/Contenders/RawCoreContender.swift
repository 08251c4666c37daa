import CBenchSupport
import CPetal

/// The raw C core driven directly: the floor. No Swift objects, no allocation beyond the future
/// itself and the nodes of later subscribers.
public enum RawCoreContender: Contender {
    public static let name = "C core"

    /// A non-Sendable raw pointer made shareable: the C future synchronises itself.
    public struct Handle: @unchecked Sendable {
        @usableFromInline let future: UnsafeMutablePointer<petal_future>
        @inlinable init(_ future: UnsafeMutablePointer<petal_future>) { self.future = future }
    }

    @inlinable
    public static func make() -> Handle { Handle(bench_c_future_new()) }

    @inlinable
    public static func subscribeCounting(_ handle: Handle) {
        _ = petal_future_subscribe(handle.future, bench_c_count, nil)
    }

    /// A C user's capturing callback (`Subscriber.receive(context:payload:)`).
    @inlinable
    public static func subscribeCapturing(_ handle: Handle, _ subscriber: Subscriber) {
        _ = petal_future_subscribe(
            handle.future,
            { future, context in Subscriber.receive(context: context, payload: petal_future_payload(future)) },
            Unmanaged.passUnretained(subscriber).toOpaque())
    }

    /// A C user's callback with a context of its own, allocated here and freed by the callback
    /// (`CapturedThree`).
    @inlinable
    public static func subscribeCapturingThree(_ handle: Handle, _ subscriber: Subscriber, index: Int, tag: RequestTag)
    {
        _ = petal_future_subscribe(
            handle.future,
            { future, context in CapturedThree.deliver(context: context, payload: petal_future_payload(future)) },
            CapturedThree.allocate(subscriber, index: index, tag: tag))
    }

    @inlinable
    public static func subscribeForwarding(_ handle: Handle, to next: Handle) {
        _ = petal_future_subscribe(handle.future, bench_c_forward, UnsafeMutableRawPointer(next.future))
    }

    @inlinable
    @discardableResult
    public static func fulfil(_ handle: Handle, with value: Int) -> Bool {
        petal_future_fulfil(handle.future, UnsafeMutableRawPointer(bitPattern: value)) == PETAL_OK
    }

    @inlinable
    public static func release(_ handle: Handle) { bench_c_future_free(handle.future) }

    /// malloc'd memory is on the heap whatever the optimiser sees.
    @inlinable
    public static func escape(_ handle: Handle) {}
}
