import CBenchSupport
import Foundation

/// The workloads, each generic over the contender and each checking its own result.
public enum Workload: String, CaseIterable, Sendable {
    /// Create, subscribe, fulfil, on each thread independently.
    case createSubscribeFulfil = "create+subscribe+fulfil"
    /// Create, fulfil, then subscribe (the callback runs at once), on each thread independently.
    /// The callback is a closure value made once, as a user passes their own function.
    case subscribeAfterFulfil = "subscribe after fulfil"
    /// One hot promise: every thread attaches 512 callbacks to it, concurrently (the attach rate).
    case hotAttach = "hot promise: attach"
    /// One hot promise with 64 callbacks a thread waiting is fulfilled and drains them (the drain
    /// rate).
    case hotDrain = "hot promise: drain"
    /// T-1 threads subscribe while one fulfils.
    case subscribeRacingFulfil = "subscribe racing fulfil"
    /// The four above with the callback a service writes: each captures an object of its own
    /// (`Subscriber`, made before the round as a request exists before its completion) and
    /// writes the value into it.
    case createSubscribeFulfilCapturing = "create+subscribe+fulfil, capturing"
    case hotAttachCapturing = "hot promise: attach, capturing"
    case hotDrainCapturing = "hot promise: drain, capturing"
    case subscribeRacingFulfilCapturing = "subscribe racing fulfil, capturing"
    /// The four again with a callback that captures three values, as a service's completion
    /// captures its request, an integer and a value of the request (`Subscriber`, its index in
    /// the round and a `RequestTag`): a closure with a context of its own.
    case createSubscribeFulfilCapturingThree = "create+subscribe+fulfil, capturing three"
    case hotAttachCapturingThree = "hot promise: attach, capturing three"
    case hotDrainCapturingThree = "hot promise: drain, capturing three"
    case subscribeRacingFulfilCapturingThree = "subscribe racing fulfil, capturing three"
    /// Every thread tries to fulfil the same promises; exactly one wins each.
    case fulfilRace = "fulfil race"
    /// Many promises shared by every thread; half the operations fulfil, half subscribe.
    case sharedPromises = "shared promises"
    /// Producer/consumer pairs, each on promises of its own (scales unless memory is shared).
    case privatePairs = "producer/consumer pairs"
    /// Two threads hand a value back and forth through promises: latency, not throughput.
    case pingPong = "ping-pong"
    /// Chains of K steps: `then`-like steps where the contender has them, otherwise callbacks
    /// that each fulfil the next promise.
    case chain1 = "chain K=1"
    case chain4 = "chain K=4"
    case chain100 = "chain K=100"
    /// A chain of K steps that begins and ends as `EventLoopFuture`s, all on one event loop (a
    /// channel handler's view): NIO's `map` steps, against Petal's `then` steps between PetalNIO's
    /// two conversions, which those steps pay for.
    case chainAcrossNIO4 = "chain across NIO K=4"

    /// The smallest thread count at which the workload means something.
    public var minimumThreads: Int {
        switch self {
        case .subscribeRacingFulfil, .subscribeRacingFulfilCapturing, .subscribeRacingFulfilCapturingThree, .pingPong: 2
        default: 1
        }
    }

    /// The largest thread count at which the workload means something.
    public var maximumThreads: Int {
        switch self {
        case .pingPong: 2
        case .chainAcrossNIO4: 1  // one event loop does all the work
        default: .max
        }
    }

    /// Whether the workload needs `fulfil` to report the winner.
    var needsWinner: Bool { self == .fulfilRace }

    /// Whether every operation of a round happens inside the workers' jobs (no coordinator step).
    var wholeInJobs: Bool {
        switch self {
        case .createSubscribeFulfil, .createSubscribeFulfilCapturing, .createSubscribeFulfilCapturingThree,
            .subscribeAfterFulfil, .privatePairs, .chain1, .chain4, .chain100:
            true
        default: false
        }
    }

    /// What the workload's callbacks capture.
    var capture: Capture {
        switch self {
        case .createSubscribeFulfilCapturing, .hotAttachCapturing, .hotDrainCapturing, .subscribeRacingFulfilCapturing:
            .oneObject
        case .createSubscribeFulfilCapturingThree, .hotAttachCapturingThree, .hotDrainCapturingThree,
            .subscribeRacingFulfilCapturingThree:
            .threeValues
        default: .nothing
        }
    }

    /// Whether the contender can run this workload faithfully at `threads`.
    public func fits<C: Contender>(_: C.Type, threads: Int) -> Bool {
        if self == .chainAcrossNIO4 { return C.chainsAcrossNIO }
        if needsWinner && !C.reportsWinner { return false }
        if C.onlyWholeJobsOnOneThread { return wholeInJobs && threads == 1 }
        return true
    }
}

/// One round of a workload for one contender at one thread count: what a benchmark iteration runs.
///
/// Only `measure` is timed; `setUp` and `tearDown` (building the state a phase needs, and
/// checking the result) run outside the measurement window.
public struct Round: Sendable {
    /// Operations per round, to turn rounds per second into operations per second.
    public let operations: Int
    private let setUpBody: @Sendable () -> Void
    private let measureBody: @Sendable () -> Void
    private let tearDownBody: @Sendable () -> Void

    public func setUp() { setUpBody() }
    public func measure() { measureBody() }
    public func tearDown() { tearDownBody() }

    init(
        operations: Int,
        setUp: @escaping @Sendable () -> Void,
        measure: @escaping @Sendable () -> Void,
        tearDown: @escaping @Sendable () -> Void
    ) {
        self.operations = operations
        setUpBody = setUp
        measureBody = measure
        tearDownBody = tearDown
    }

    /// A round measured whole.
    init(operations: Int, body: @escaping @Sendable () -> Void) {
        self.init(operations: operations, setUp: {}, measure: body, tearDown: {})
    }

    /// This round with `pool`'s workers woken at the end of its set-up, so that its measurement
    /// starts with them waiting at the start line, not asleep (see `WorkerPool`).
    func wakingFirst(_ pool: WorkerPool) -> Round {
        let setUp = setUpBody
        return Round(
            operations: operations,
            setUp: {
                setUp()
                pool.wake()
            },
            measure: measureBody,
            tearDown: tearDownBody
        )
    }
}

/// A worker pool whose jobs run where contender `C` wants its work done.
struct ContenderPool<C: Contender>: Sendable {
    let pool: WorkerPool
    init(_ pool: WorkerPool) { self.pool = pool }
    func run(_ job: @escaping @Sendable (Int) -> Void) {
        pool.run { index in C.perform { job(index) } }
    }
    func startTogether() { pool.startTogether() }
}

/// State handed from a round's set-up to its measured phase and tear-down (one round at a time).
final class RoundState<Value>: @unchecked Sendable {
    // @unchecked: the phases of a round run one after another on the benchmark's thread, and
    // the workers read `value` only inside `measure`, between the pool's synchronising
    // hand-offs.
    var value: Value?
}

/// Fails the run: a contender that loses or duplicates callbacks must not post a number.
func verify(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("benchmark self-check failed: \(message())") }
}

/// What a workload's callbacks capture: nothing (a shared counter), one object of their own, or
/// three values (an object, an integer and a two-word value).
public enum Capture: Sendable {
    case nothing, oneObject, threeValues
}

/// Moves non-Sendable handles into worker jobs; each workload says why that is sound.
struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
