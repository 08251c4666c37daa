import CBenchSupport

/// One promise implementation under measurement, behind the smallest adapter the workloads need.
///
/// Every callback a workload subscribes counts (bumping the shared C counter, so it captures
/// nothing and allocates no closure context), captures an object of its own as a service's
/// callbacks do (`Subscriber`, the capturing workloads), captures three values as they usually
/// do (a closure with a context of its own), or forwards its value to another promise. Workloads check the counter afterwards, so a broken contender cannot post a fast
/// number.
public protocol Contender: SendableMetatype {
    associatedtype Handle
    /// The name in tables and plots.
    static var name: String { get }
    /// Whether callbacks may run on another thread after the subscribing or fulfilling call
    /// returned (an event loop's promises): workloads then wait for the count to arrive.
    static var deliversAsynchronously: Bool { get }
    /// Whether `fulfil` reports if it won (single-assignment checks need it).
    static var reportsWinner: Bool { get }
    static func make() -> Handle
    static func subscribeCounting(_ handle: Handle)
    /// Subscribes `callback` as the user passed it: a closure value made elsewhere, not a
    /// literal at the call site (a generic API may have to re-wrap such a value to store it).
    static func subscribe(_ handle: Handle, _ callback: @escaping @Sendable (Int) -> Void)
    /// Subscribes a callback that captures `subscriber` and passes it the value
    /// (`Subscriber.receive`), written as a user writes it: a closure literal at the call of the
    /// contender's own API (no default: a closure passed on as a value can cost what the
    /// literal does not).
    static func subscribeCapturing(_ handle: Handle, _ subscriber: Subscriber)
    /// Subscribes a callback that captures three values, as a service's completion captures its
    /// request, an integer and a value of the request (`{ [request, index, tag] in ... }`), and
    /// passes them on (`Subscriber.receive(_:index:tag:)`): a literal at the contender's own
    /// call, as `subscribeCapturing`'s. Swift gives such a closure a context of its own; C
    /// embedders allocate one (`CapturedThree`).
    static func subscribeCapturingThree(_ handle: Handle, _ subscriber: Subscriber, index: Int, tag: RequestTag)
    static func subscribeForwarding(_ handle: Handle, to next: Handle)
    /// Fulfils with `value`; returns whether this call resolved the promise.
    @discardableResult
    static func fulfil(_ handle: Handle, with value: Int) -> Bool
    /// Frees what `make` allocated by hand (the raw C core); no-op elsewhere.
    static func release(_ handle: Handle)
    /// Waits until the `subscriptions` made so far have reached the promise (asynchronous
    /// contenders only: an event loop applies a foreign thread's subscription later, a task
    /// registers its continuation when it first runs).
    static func settle(_ handle: Handle, subscriptions: Int)
    /// Runs one worker's share of a round: in place, or where the contender wants its work done
    /// (an event loop that owns its promises).
    static func perform(_ job: @escaping @Sendable () -> Void)
    /// Whether the contender can only run rounds that are wholly inside worker jobs on one thread
    /// (all work on one event loop).
    static var onlyWholeJobsOnOneThread: Bool { get }
    /// Lets the handle escape, as a promise handed to another thread does, so the optimiser
    /// cannot keep it on the stack for some contenders and not others.
    static func escape(_ handle: Handle)
    /// Chains `links` steps onto a new promise, counts once at the tail, and fulfils the head
    /// with `value`. Contenders with a chaining API use it (Petal's `then`, NIO's `map`, each
    /// step adding one and the tail counting only the right total); the default chains
    /// callbacks that each fulfil the next promise, which is how the others' users chain.
    static func runChain(links: Int, value: Int)
    /// Whether the contender can combine promises into one of all their values
    /// (`runFulfillingWhen`): one with a combinator, or whose promises hold any value, so that
    /// its users can write the fan-in themselves.
    static var fansIn: Bool { get }
    /// Combines `width` new promises into one of all their values, counts once at the output if
    /// the values are right, and fulfils input `index` with `value + index`, in input order.
    /// Petal uses its combinator (`fulfillingWhen`); the generic designs, which have none, the
    /// fan-in their users write (`GenericPromise.fulfillingWhen`).
    static func runFulfillingWhen(width: Int, value: Int)
    /// Races `width` new promises into one resolved by the first, counts once at the output, and
    /// fulfils input `index` with `value + index`, in input order (every input after the first
    /// loses). Petal uses its combinator (`firstResolved(of:)`); the default forwards every input
    /// to the output, which is how the others' users race.
    static func runRace(width: Int, value: Int)
    /// Whether the contender runs chains that begin and end as NIO futures (`runChainAcrossNIO`).
    static var chainsAcrossNIO: Bool { get }
    /// Called on the benchmark's event loop: chains `links` steps that each add one between an
    /// `EventLoopFuture` head and an `EventLoopFuture` tail on that loop, counts once at the tail
    /// if the total is right, and completes the head with `value`.
    static func runChainAcrossNIO(links: Int, value: Int)
}

extension Contender {
    public static var deliversAsynchronously: Bool { false }
    public static var reportsWinner: Bool { true }
    public static func release(_ handle: Handle) {}
    /// Contenders that cannot take a Swift closure (the raw C core) count as usual.
    public static func subscribe(_ handle: Handle, _ callback: @escaping @Sendable (Int) -> Void) {
        subscribeCounting(handle)
    }
    public static func settle(_ handle: Handle, subscriptions: Int) {}
    public static func perform(_ job: @escaping @Sendable () -> Void) { job() }
    public static var onlyWholeJobsOnOneThread: Bool { false }
    public static var chainsAcrossNIO: Bool { false }
    public static func runChainAcrossNIO(links: Int, value: Int) {
        fatalError("\(name) has no chain across NIO")
    }

    // Inlinable: the probe calls it from code specialised for the contender, where a generic
    // body from this module would run unspecialised, reading its ranges and arrays through
    // witness tables with a heap-allocated coroutine frame per element read (5 of the 8
    // allocations and 3,000 of the 4,800 instructions a `Mutex` chain step counted under
    // callgrind). The timed benchmarks specialise it in this module already (`Registry`).
    @inlinable
    public static func runChain(links: Int, value: Int) {
        let chain = (0...links).map { _ in make() }
        for link in 0..<links { subscribeForwarding(chain[link], to: chain[link + 1]) }
        subscribeCounting(chain[links])
        fulfil(chain[0], with: value)
        if !deliversAsynchronously { chain.forEach(release) }
    }

    public static var fansIn: Bool { false }
    public static func runFulfillingWhen(width: Int, value: Int) {
        fatalError("\(name) cannot combine promises into one of all their values")
    }

    /// Inlinable, as `runChain` is.
    @inlinable
    public static func runRace(width: Int, value: Int) {
        let inputs = (0..<width).map { _ in make() }
        let output = make()
        for input in inputs { subscribeForwarding(input, to: output) }
        subscribeCounting(output)
        for (index, input) in inputs.enumerated() { fulfil(input, with: value + index) }
        if !deliversAsynchronously {
            inputs.forEach(release)
            release(output)
        }
    }
}

extension Contender {
    /// Subscribes `count` counting callbacks to `handle`, or one capturing callback (of
    /// `capture`'s kind) for each of `subscribers`: the choice made once, outside the loop the
    /// hot promise measures.
    @inlinable
    public static func subscribe(_ handle: Handle, _ count: Int, _ capture: Capture, _ subscribers: [Subscriber]) {
        switch capture {
        case .nothing:
            for _ in 0..<count { subscribeCounting(handle) }
        case .oneObject:
            for subscriber in subscribers { subscribeCapturing(handle, subscriber) }
        case .threeValues:
            for (index, subscriber) in subscribers.enumerated() {
                subscribeCapturingThree(handle, subscriber, index: index, tag: RequestTag(index))
            }
        }
    }
}

extension Contender where Handle: AnyObject {
    @inlinable
    public static func escape(_ handle: Handle) {
        bench_escape(Unmanaged.passUnretained(handle).toOpaque())
    }
}

/// Callbacks delivered so far, across threads and contenders.
public enum Delivered {
    @inlinable public static func reset() { bench_count_reset() }
    @inlinable public static var count: Int { bench_count_read() }
}
