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

extension Workload {
    /// Builds one round of `self` for contender `C` on `threads` threads.
    public func round<C: Contender>(for _: C.Type, threads: Int) -> Round {
        let workers = WorkerPool.shared(threads: threads)
        let round = unwokenRound(for: C.self, pool: ContenderPool<C>(workers), threads: threads)
        return measuresWorkers ? round.wakingFirst(workers) : round
    }

    /// Whether the measured phase runs jobs on the worker pool (the drain is one thread's
    /// fulfil; the chain across NIO runs on the event loop).
    private var measuresWorkers: Bool {
        switch self {
        case .hotDrain, .hotDrainCapturing, .hotDrainCapturingThree, .chainAcrossNIO4: false
        default: true
        }
    }

    private func unwokenRound<C: Contender>(for _: C.Type, pool: ContenderPool<C>, threads: Int) -> Round {
        switch self {
        case .createSubscribeFulfil, .subscribeAfterFulfil:
            let perThread = 512
            let after = self == .subscribeAfterFulfil
            return Round(operations: perThread * threads) {
                Delivered.reset()
                pool.run { _ in
                    let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
                    for value in 0..<perThread {
                        let handle = C.make()
                        // Real promises escape (to the producer's thread); without this the
                        // optimiser may put a handle on the stack for some contenders only.
                        C.escape(handle)
                        if after {
                            C.fulfil(handle, with: value)
                            C.subscribe(handle, callback)
                        } else {
                            C.subscribeCounting(handle)
                            C.fulfil(handle, with: value)
                        }
                        if !C.deliversAsynchronously { C.release(handle) }
                    }
                }
                awaitDelivered(C.self, perThread * threads)
            }

        case .createSubscribeFulfilCapturing, .createSubscribeFulfilCapturingThree:
            let perThread = 512
            let three = capture == .threeValues
            let subscribers = RoundState<Shared<[[Subscriber]]>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    subscribers.value = Shared(Subscriber.make(threads: threads, perThread: perThread) { $0 })
                },
                measure: {
                    pool.run { index in
                        // Sound: each worker reads its own row; the subscribers are Sendable.
                        let mine = subscribers.value!.value[index]
                        for value in 0..<perThread {
                            let handle = C.make()
                            C.escape(handle)
                            if three {
                                C.subscribeCapturingThree(handle, mine[value], index: value, tag: RequestTag(value))
                            } else {
                                C.subscribeCapturing(handle, mine[value])
                            }
                            C.fulfil(handle, with: value)
                            if !C.deliversAsynchronously { C.release(handle) }
                        }
                    }
                    awaitDelivered(C.self, perThread * threads)
                },
                tearDown: { subscribers.value = nil }
            )

        case .hotAttach, .hotAttachCapturing, .hotAttachCapturingThree:
            // 512 a thread, as create+subscribe+fulfil: with 64, a round at T = 4 (3-5 us of
            // attaching) was shorter than four threads on two cores take to pass the start line
            // (9.5 us), and every fast contender measured the same 62-88k rounds a second.
            let perThread = 512
            let capture = capture
            let hot = RoundState<Shared<(C.Handle, [[Subscriber]])>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    let subscribers =
                        capture == .nothing ? [] : Subscriber.make(threads: threads, perThread: perThread) { _ in 1 }
                    hot.value = Shared((C.make(), subscribers))
                },
                measure: {
                    pool.run { index in
                        // Sound: the contenders' handles are thread-safe promise objects.
                        let (handle, subscribers) = hot.value!.value
                        pool.startTogether()
                        C.subscribe(handle, perThread, capture, capture == .nothing ? [] : subscribers[index])
                    }
                },
                tearDown: {
                    let handle = hot.value!.value.0
                    C.fulfil(handle, with: 1)
                    awaitDelivered(C.self, perThread * threads)
                    C.release(handle)
                    hot.value = nil
                }
            )

        case .hotDrain, .hotDrainCapturing, .hotDrainCapturingThree:
            let perThread = 64
            let capture = capture
            let hot = RoundState<Shared<(C.Handle, [[Subscriber]])>>()
            return Round(
                operations: perThread * threads,
                setUp: {
                    Delivered.reset()
                    let handle = C.make()
                    let subscribers =
                        capture == .nothing ? [] : Subscriber.make(threads: threads, perThread: perThread) { _ in 1 }
                    let shared = Shared((handle, subscribers))
                    pool.run { index in
                        C.subscribe(
                            shared.value.0, perThread, capture, capture == .nothing ? [] : shared.value.1[index])
                    }
                    if C.deliversAsynchronously { C.settle(handle, subscriptions: perThread * threads) }
                    hot.value = shared
                },
                measure: {
                    C.fulfil(hot.value!.value.0, with: 1)
                    awaitDelivered(C.self, perThread * threads)
                },
                tearDown: {
                    C.release(hot.value!.value.0)
                    hot.value = nil
                }
            )

        case .subscribeRacingFulfil:
            let perThread = 64
            let promises = 8
            return Round(operations: promises * (perThread * (threads - 1) + 1)) {
                Delivered.reset()
                let handles = Shared((0..<promises).map { _ in C.make() })
                pool.run { index in
                    pool.startTogether()
                    for handle in handles.value {
                        if index == 0 {
                            C.fulfil(handle, with: 1)
                        } else {
                            for _ in 0..<perThread { C.subscribeCounting(handle) }
                        }
                    }
                }
                awaitDelivered(C.self, promises * perThread * (threads - 1))
                handles.value.forEach(C.release)
            }

        case .subscribeRacingFulfilCapturing, .subscribeRacingFulfilCapturingThree:
            let perThread = 64
            let three = capture == .threeValues
            let promises = 8
            let subscribers = RoundState<Shared<[[Subscriber]]>>()
            return Round(
                operations: promises * (perThread * (threads - 1) + 1),
                setUp: {
                    Delivered.reset()
                    // Row `index - 1` for subscribing thread `index`, `perThread` a promise.
                    subscribers.value = Shared(
                        Subscriber.make(threads: threads - 1, perThread: promises * perThread) { _ in 1 })
                },
                measure: {
                    // As the counting workload: the promises are made and freed in the round.
                    let handles = Shared((0..<promises).map { _ in C.make() })
                    pool.run { index in
                        let rows = subscribers.value!.value
                        pool.startTogether()
                        for (promise, handle) in handles.value.enumerated() {
                            if index == 0 {
                                C.fulfil(handle, with: 1)
                            } else {
                                let mine = rows[index - 1]
                                let ks = (promise * perThread)..<((promise + 1) * perThread)
                                if three {
                                    for k in ks {
                                        C.subscribeCapturingThree(handle, mine[k], index: k, tag: RequestTag(k))
                                    }
                                } else {
                                    for k in ks { C.subscribeCapturing(handle, mine[k]) }
                                }
                            }
                        }
                    }
                    awaitDelivered(C.self, promises * perThread * (threads - 1))
                    handles.value.forEach(C.release)
                },
                tearDown: { subscribers.value = nil }
            )

        case .fulfilRace:
            let promises = 256
            return Round(operations: promises * threads) {
                let handles = Shared((0..<promises).map { _ in C.make() })
                let winners = Shared(UnsafeMutableBufferPointer<Int>.allocate(capacity: threads))
                pool.run { index in
                    pool.startTogether()
                    var won = 0
                    for handle in handles.value where C.fulfil(handle, with: index) { won += 1 }
                    winners.value[index] = won
                }
                verify(winners.value.reduce(0, +) == promises, "\(C.name): not exactly one winner per promise")
                winners.value.deallocate()
                handles.value.forEach(C.release)
            }

        case .sharedPromises:
            let promises = 256
            return Round(operations: promises * threads) {
                Delivered.reset()
                let handles = Shared((0..<promises).map { _ in C.make() })
                let subscribed = Shared(UnsafeMutableBufferPointer<Int>.allocate(capacity: threads))
                pool.run { index in
                    pool.startTogether()
                    var subscriptions = 0
                    // Each thread walks the promises from its own offset; half its steps fulfil.
                    for step in 0..<promises {
                        let handle = handles.value[(step + index * 37) % promises]
                        if (step + index).isMultiple(of: 2) {
                            C.fulfil(handle, with: step)
                        } else {
                            C.subscribeCounting(handle)
                            subscriptions += 1
                        }
                    }
                    subscribed.value[index] = subscriptions
                }
                // Every promise must resolve so every subscription is owed its callback.
                for handle in handles.value { C.fulfil(handle, with: -1) }
                awaitDelivered(C.self, subscribed.value.reduce(0, +))
                subscribed.value.deallocate()
                handles.value.forEach(C.release)
            }

        case .privatePairs:
            let perPair = 256
            let pairs = max(1, threads / 2)
            return Round(operations: perPair * pairs * 2) {
                Delivered.reset()
                let handles = Shared((0..<pairs).map { _ in (0..<perPair).map { _ in C.make() } })
                pool.run { index in
                    let pair = min(index / 2, pairs - 1)
                    let mine = handles.value[pair]
                    pool.startTogether()
                    if threads == 1 {
                        for handle in mine {
                            C.subscribeCounting(handle)
                            C.fulfil(handle, with: 1)
                        }
                    } else if index >= pairs * 2 {
                        return  // an odd thread out has no partner
                    } else if index.isMultiple(of: 2) {
                        for handle in mine { C.fulfil(handle, with: 1) }
                    } else {
                        for handle in mine { C.subscribeCounting(handle) }
                    }
                }
                awaitDelivered(C.self, perPair * pairs)
                handles.value.forEach { $0.forEach(C.release) }
            }

        case .pingPong:
            let exchanges = 256
            return Round(operations: 2 * exchanges) {
                Delivered.reset()
                // Sound: the contenders' handles are thread-safe promise objects.
                let pings = Shared((0..<exchanges).map { _ in C.make() })
                let pongs = Shared((0..<exchanges).map { _ in C.make() })
                for index in 0..<exchanges {
                    C.subscribeCounting(pings.value[index])
                    C.subscribeCounting(pongs.value[index])
                }
                pool.run { index in
                    pool.startTogether()
                    for exchange in 0..<exchanges {
                        if index == 0 {
                            C.fulfil(pings.value[exchange], with: exchange)
                            while Delivered.count < 2 * exchange + 2 { sched_yield() }
                        } else {
                            while Delivered.count < 2 * exchange + 1 { sched_yield() }
                            C.fulfil(pongs.value[exchange], with: exchange)
                        }
                    }
                }
                awaitDelivered(C.self, 2 * exchanges)
                pings.value.forEach(C.release)
                pongs.value.forEach(C.release)
            }

        case .chain1, .chain4, .chain100:
            let links = self == .chain1 ? 1 : self == .chain4 ? 4 : 100
            let chainsPerThread = max(1, 400 / links)
            return Round(operations: links * chainsPerThread * threads) {
                Delivered.reset()
                pool.run { _ in
                    for _ in 0..<chainsPerThread { C.runChain(links: links, value: 7) }
                }
                awaitDelivered(C.self, chainsPerThread * threads)
            }

        case .chainAcrossNIO4:
            let links = 4
            let chains = 100
            return Round(operations: links * chains) {
                Delivered.reset()
                // One task on the loop per round, the same for every contender, so the figures
                // compare the chains themselves.
                onLoop {
                    for _ in 0..<chains { C.runChainAcrossNIO(links: links, value: 7) }
                }
                awaitDelivered(C.self, chains)
            }
        }
    }
}

/// Waits for asynchronous contenders to deliver; checks the exact count for everyone.
func awaitDelivered<C: Contender>(_: C.Type, _ expected: Int) {
    if C.deliversAsynchronously {
        while Delivered.count < expected { sched_yield() }
    }
    verify(Delivered.count == expected, "\(C.name): \(Delivered.count) callbacks delivered, expected \(expected)")
}
