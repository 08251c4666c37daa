import CBenchCoreC11
import CBenchSupport
import CPetal

/// The raw C core on C11 atomics, beside ``RawCoreContender`` (the library's own core, on
/// libatomic_ops wherever it is installed): the same sources compiled again with
/// `PETAL_ATOMICS_C11` (`CBenchCoreC11`), driven the same way, so one run compares the backends.
public enum RawCoreC11Contender: Contender {
    public static let name = "C core (C11 atomics)"

    public typealias Handle = RawCoreContender.Handle

    /// The copy's own report of its atomics: "C11", or the build did not select the backend.
    public static let backend = String(cString: bench_c11_atomics_backend())

    /// The registry's entry, refused unless the copy really runs on C11 atomics: a run must not
    /// compare a backend with itself under two names.
    public static var entry: Entry {
        precondition(backend == "C11", "Petal: the C11 copy of the C core was built on \(backend)")
        return Contenders.entry(Self.self)
    }

    @inlinable
    public static func make() -> Handle { Handle(bench_c11_future_new()) }

    @inlinable
    public static func subscribeCounting(_ handle: Handle) {
        _ = bench_c11_future_subscribe(handle.future, bench_c_count, nil)
    }

    /// As the library's core does it (`RawCoreContender.subscribeCapturing`).
    @inlinable
    public static func subscribeCapturing(_ handle: Handle, _ subscriber: Subscriber) {
        _ = bench_c11_future_subscribe(
            handle.future,
            { future, context in Subscriber.receive(context: context, payload: bench_c11_future_payload(future)) },
            Unmanaged.passUnretained(subscriber).toOpaque())
    }

    @inlinable
    public static func subscribeCapturingThree(_ handle: Handle, _ subscriber: Subscriber, index: Int, tag: RequestTag)
    {
        _ = bench_c11_future_subscribe(
            handle.future,
            { future, context in CapturedThree.deliver(context: context, payload: bench_c11_future_payload(future)) },
            CapturedThree.allocate(subscriber, index: index, tag: tag))
    }

    @inlinable
    public static func subscribeForwarding(_ handle: Handle, to next: Handle) {
        _ = bench_c11_future_subscribe(handle.future, bench_c11_forward, UnsafeMutableRawPointer(next.future))
    }

    @inlinable
    @discardableResult
    public static func fulfil(_ handle: Handle, with value: Int) -> Bool {
        bench_c11_future_resolve(handle.future, PETAL_STATUS_FULFILLED, UnsafeMutableRawPointer(bitPattern: value))
            == PETAL_OK
    }

    @inlinable
    public static func release(_ handle: Handle) { bench_c11_future_free(handle.future) }

    /// malloc'd memory is on the heap whatever the optimiser sees.
    @inlinable
    public static func escape(_ handle: Handle) {}
}
