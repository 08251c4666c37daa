import CBenchSupport
import Contenders
import LibraryPromises

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A single-threaded loop of one operation for one contender, for `Scripts/profile` to run under
/// callgrind: instruction, atomic and allocation counts are exact there, where wall time is not.
/// With `--time`, the same loop on the clock instead (`Scripts/scaling`; see `time`).
///
///     PetalProbe [--time] OPERATION CONTENDER COUNT
///
/// The sized operations (issue 21's scaling table, `Scripts/scaling`) count one element each, so
/// that a cost that grows with the size shows as a growing cost per operation:
/// - "subscribers N=64": one promise, N subscribers, then the fulfil that runs them; an
///   operation is one subscriber's attach and delivery.
/// - "all width=16": N new promises combined into one of all their values, then each fulfilled;
///   an operation is one input. Only for contenders that fan in (`Contender.fansIn`).
/// - "race width=16": N new promises raced into one, then each fulfilled; an operation is one
///   input.
/// - "chain depth=100": a chain of N steps, then the fulfil of its head; an operation is one step.
/// COUNT must be a multiple of N.
///
/// "batch of 256" is the producer/consumer pairs' shape on one thread: 256 promises made, each
/// subscribed and fulfilled, then all dropped; an operation is one promise. Unlike one promise at
/// a time, its allocations outrun the allocator's per-thread cache (glibc's holds seven blocks
/// of a size), so each of a promise's objects costs the allocator's slower paths.
///
/// "create+subscribe+fulfil capturing" and "hot promise capturing" are the suite's capturing
/// workloads on one thread: each callback captures a `Subscriber` and writes the value into it.
/// "create+subscribe+fulfil capturing three" and "hot promise capturing three" capture three
/// values (the subscriber, its index and a `RequestTag`), as the suite's "capturing three" cells.
/// "capturing chain K=100" (Petal only) is the suite's chain with steps that capture an object,
/// an integer and a value of the request, as a service's steps do; an operation is one step.
/// "capturing stop" and "batch capturing stops" (Petal only) register a producer's stop that
/// captures its call, as the example service does (`CapturingStop`); "cancellation handler
/// capturing two" a `whenCancellationRequested` handler capturing the call and the promise.
/// "late subscriber capturing three" is the racing cells' common path: such a callback subscribed
/// after the fulfil, so that it runs at once; an operation is one subscriber.
///
/// "completion handler" is how a service hands a promise to the work that resolves it (the
/// example service's backend calls): the promise is made and subscribed, captured by a
/// completion handler that is kept (in memory the optimiser cannot see through) until the work
/// answers, then called with the value and dropped; an operation is one promise. The contender
/// "prototype" runs it, and create+subscribe+fulfil, with the one-object prototype
/// (`runPrototype`).
func run<C: Contender>(_: C.Type, _ operation: String, _ count: Int) -> Bool {
    Delivered.reset()
    var expected = count
    if let (family, size) = sized(operation) {
        precondition(size > 0 && count.isMultiple(of: size), "COUNT must be a multiple of \(size)")
        let groups = count / size
        switch family {
        case "subscribers N":
            separately {
                for _ in 0..<groups {
                    let handle = C.make()
                    C.escape(handle)
                    for _ in 0..<size { C.subscribeCounting(handle) }
                    C.fulfil(handle, with: 1)
                    C.release(handle)
                }
            }
        case "all width":
            guard C.fansIn else { return false }
            for _ in 0..<groups { C.runFulfillingWhen(width: size, value: 7) }
            expected = groups
        case "race width":
            for _ in 0..<groups { C.runRace(width: size, value: 7) }
            expected = groups
        case "chain depth":
            for _ in 0..<groups { C.runChain(links: size, value: 7) }
            expected = groups
        default:
            fatalError("unknown family \(family)")
        }
        precondition(Delivered.count == expected, "\(Delivered.count) callbacks, expected \(expected)")
        return true
    }
    switch operation {
    case "create+subscribe+fulfil":
        separately {
            for value in 0..<count {
                let handle = C.make()
                C.escape(handle)
                C.subscribeCounting(handle)
                C.fulfil(handle, with: value)
                C.release(handle)
            }
        }
    case "batch of 256":
        separately {
            precondition(count.isMultiple(of: 256), "COUNT must be a multiple of 256")
            for _ in 0..<count / 256 {
                let handles = (0..<256).map { _ in C.make() }
                for handle in handles {
                    C.subscribeCounting(handle)
                    C.fulfil(handle, with: 1)
                }
                handles.forEach(C.release)
            }
        }
    case "completion handler":
        separately {
            let kept = CompletionSlot()
            for value in 0..<count {
                let handle = C.make()
                C.escape(handle)
                C.subscribeCounting(handle)
                kept.keep { C.fulfil(handle, with: $0) }
                kept.answer(with: value)
                C.release(handle)
            }
        }
    case "subscribe after fulfil":
        separately {
            let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
            for value in 0..<count {
                let handle = C.make()
                C.escape(handle)
                C.fulfil(handle, with: value)
                C.subscribe(handle, callback)
                C.release(handle)
            }
        }
    case "late subscriber":
        separately {
            // One resolved promise, subscribed to again and again: an operation is one subscription,
            // whose callback runs at once (a closure value made once, as a user's own function).
            let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
            let handle = C.make()
            C.escape(handle)
            C.fulfil(handle, with: 1)
            for _ in 0..<count { C.subscribe(handle, callback) }
            C.release(handle)
        }
    case "hot promise":
        separately {
            // One promise, 64 subscribers, then the fulfil that drains them: an operation is one
            // subscriber's attach and delivery.
            precondition(count.isMultiple(of: 64))
            for _ in 0..<count / 64 {
                let handle = C.make()
                C.escape(handle)
                for _ in 0..<64 { C.subscribeCounting(handle) }
                C.fulfil(handle, with: 1)
                C.release(handle)
            }
        }
    case "create+subscribe+fulfil capturing", "hot promise capturing", "create+subscribe+fulfil capturing three",
        "hot promise capturing three":
        separately {
            // The capturing workloads' shapes: each callback captures a subscriber of its own, made
            // before the loop (64, reused: as a request outlives its completion); "hot promise" as
            // above, an operation one subscriber's attach and delivery.
            precondition(count.isMultiple(of: 64))
            let subscribers = (0..<64).map { _ in Subscriber(expecting: 1) }
            let hot = operation.hasPrefix("hot")
            let capture: Capture = operation.hasSuffix("three") ? .threeValues : .oneObject
            for _ in 0..<count / 64 {
                if hot {
                    let handle = C.make()
                    C.escape(handle)
                    C.subscribe(handle, 64, capture, subscribers)
                    C.fulfil(handle, with: 1)
                    C.release(handle)
                } else {
                    for (index, subscriber) in subscribers.enumerated() {
                        let handle = C.make()
                        C.escape(handle)
                        if capture == .threeValues {
                            C.subscribeCapturingThree(handle, subscriber, index: index, tag: RequestTag(index))
                        } else {
                            C.subscribeCapturing(handle, subscriber)
                        }
                        C.fulfil(handle, with: 1)
                        C.release(handle)
                    }
                }
            }
        }
    case "late subscriber capturing three":
        separately {
            // The racing cells' common path: a subscriber capturing three values (its subscriber,
            // index and tag) arrives after the fulfil, so its callback runs at once; 8 promises, 64
            // subscribers each, as a round of "subscribe racing fulfil, capturing three".
            precondition(count.isMultiple(of: 512))
            let subscribers = (0..<512).map { _ in Subscriber(expecting: 1) }
            for _ in 0..<count / 512 {
                let handles = (0..<8).map { _ in C.make() }
                for (promise, handle) in handles.enumerated() {
                    C.escape(handle)
                    C.fulfil(handle, with: 1)
                    for k in (promise * 64)..<((promise + 1) * 64) {
                        C.subscribeCapturingThree(handle, subscribers[k], index: k, tag: RequestTag(k))
                    }
                }
                handles.forEach(C.release)
            }
        }
    case "fulfil race":
        separately {
            // Two fulfils, the second losing: an operation is one attempt.
            precondition(count.isMultiple(of: 2))
            expected = 0
            for value in 0..<count / 2 {
                let handle = C.make()
                C.escape(handle)
                C.fulfil(handle, with: value)
                C.fulfil(handle, with: value)
                C.release(handle)
            }
        }
    case "chain K=100":
        separately {
            // An operation is one step.
            precondition(count.isMultiple(of: 100))
            for _ in 0..<count / 100 { C.runChain(links: 100, value: 7) }
            expected = count / 100
        }
    default:
        return false
    }
    precondition(Delivered.count == expected, "\(Delivered.count) callbacks, expected \(expected)")
    return true
}

/// Runs `body`, an operation's loop, as a function of its own: inlined into `run`, whose switch
/// holds every operation, the contenders' calls met an inliner already spent on the other cases
/// (a change to one observer moved which calls of another case were inlined, by up to 60
/// instructions an operation), where a user's function holds one such loop.
@inline(never)
func separately(_ body: () -> Void) { body() }

/// The family and size of a sized operation: ("all width", 16) for "all width=16"; nil for the
/// others (the older "chain K=100" and "service request N=32" included).
func sized(_ operation: String) -> (family: Substring, size: Int)? {
    guard let equals = operation.firstIndex(of: "="), let size = Int(operation[operation.index(after: equals)...])
    else { return nil }
    let family = operation[..<equals]
    return ["subscribers N", "all width", "race width", "chain depth"].contains(family) ? (family, size) : nil
}

/// The operations only Petal runs, each delivering once per operation: issue 54's
/// future-returning step (StepRequest), issue 40's primitives on the path every call takes
/// (TailRequest) and issue 55's request deadline (DeadlineRequest); `nil` for the others.
func petalOnly(_ operation: String) -> ((Int) -> Void)? {
    switch operation {
    case "step returning a future": { StepRequest.run($0, askable: false, chained: false) }
    case "step returning a future then a step": { StepRequest.run($0, askable: false, chained: true) }
    case "step returning an askable future": { StepRequest.run($0, askable: true, chained: false) }
    case "capturing chain K=100": CapturingChain.run
    case "capturing stop": CapturingStop.promise
    case "batch capturing stops": CapturingStop.batch
    case "cancellation handler capturing two": CapturingStop.handler
    case "plain call": TailRequest.plain
    case "hedged call": TailRequest.hedged
    case "limit admission": TailRequest.limited
    case "adaptive hedged call": TailRequest.adaptiveHedged
    case "breaker call": TailRequest.breakerCall
    case "sampled breaker call": TailRequest.sampledBreakerCall
    case "resilient call": TailRequest.resilientCall
    case "fused resilient call": TailRequest.fusedResilientCall
    case "hedged call through a breaker": TailRequest.hedgedThroughBreaker
    case "timeout": DeadlineRequest.timeout
    case "subscribe with a deadline bound": DeadlineRequest.subscribeUnderDeadline
    case "timeout under a deadline": DeadlineRequest.timeoutUnderDeadline
    default: nil
    }
}

/// Runs `count` operations of `operation` for `contender`; `false` if either is unknown.
func perform(_ operation: String, _ contender: String, _ count: Int) -> Bool {
    if operation.hasPrefix("service request N=32") {
        // Petal's, its batch's, NIO's and the floor's share of one request of the example service
        // (ServiceRequest): an operation is one backend call, 32 to a request; in "half late", 16
        // answer and the deadline passes for the rest.
        precondition(count.isMultiple(of: 32))
        let answered = operation.hasSuffix("half late") ? 16 : 32
        let request: ((Int, Int) -> Void)? =
            switch contender {
            case "Petal": ServiceRequest.petal
            case "batch": ServiceRequest.batch
            case "batch slots": ServiceRequest.batchSlots
            case "batch slot stops": ServiceRequest.batchSlotStops
            case "NIO": ServiceRequest.nio
            case "callbacks": ServiceRequest.callbacks
            default: nil
            }
        guard let request else { return false }
        Delivered.reset()
        for _ in 0..<count / 32 { request(32, answered) }
        // One count a request, and one a call stopped (the batch's one stop counts once).
        let stopped = answered == 32 ? 0 : contender == "batch" || contender == "batch slots" ? 1 : 32 - answered
        precondition(Delivered.count == count / 32 * (1 + stopped), "\(Delivered.count) deliveries")
        return true
    }
    if operation.hasPrefix("fan-out N="), let width = Int(operation.dropFirst("fan-out N=".count)) {
        // The suite's fan-out (FanOutCell), Petal's style, its one-object prototype's
        // ("prototype") or Petal's batch ("batch"): an operation is one call; whole rounds
        // of about 4,096 calls (a quarter of the requests with a late call, stopped).
        let style: FanOutCell.Style? =
            switch contender {
            case "Petal": .petal
            case "prototype": .uniquePromisePrototype
            case "batch": .promiseBatch
            default: nil
            }
        guard let cell = FanOutCell.all.first(where: { $0.width == width && $0.style == style }) else { return false }
        precondition(count.isMultiple(of: cell.operations), "\(count) is not whole rounds of \(cell.operations)")
        for _ in 0..<count / cell.operations { cell.runRoundOnThisThread() }
        return true
    }
    if operation == "latency record" {
        // The adaptive hedge delay's histogram (LatencyRecord): an operation is one sample.
        let record: ((Int) -> Void)? =
            switch contender {
            case "Petal": LatencyRecord.petal
            case "HdrHistogram": LatencyRecord.hdrHistogram
            default: nil
            }
        guard let record else { return false }
        Delivered.reset()
        record(count)
        precondition(Delivered.count == count, "\(Delivered.count) deliveries, expected \(count)")
        return true
    }
    if let petalOnly = petalOnly(operation) {
        guard contender == "Petal" else { return false }
        Delivered.reset()
        petalOnly(count)
        precondition(Delivered.count == count, "\(Delivered.count) deliveries, expected \(count)")
        return true
    }
    switch contender {
    case "Petal": return run(PetalContender.self, operation, count)
    case "C core": return run(RawCoreContender.self, operation, count)
    case "C core (C11 atomics)":
        print("C core (C11 atomics): built on \(RawCoreC11Contender.backend)")
        return RawCoreC11Contender.backend == "C11" && run(RawCoreC11Contender.self, operation, count)
    case "C mutex future": return run(CMutexFutureContender.self, operation, count)
    case "C Treiber future": return run(CTreiberFutureContender.self, operation, count)
    case "bare": return run(BareContender.self, operation, count)
    case "Mutex": return run(LockedContender<MutexPromise>.self, operation, count)
    case "Mutex (generic)": return run(LockedContender<GenericMutexPromise<Int>>.self, operation, count)
    case "bare (generic)": return run(LockedContender<GenericBarePromise<Int>>.self, operation, count)
    case "prototype": return runPrototype(operation, count)
    default: return false
    }
}

/// Times `operation` on this thread: warm-up runs from `count` operations, the count doubled
/// until one lasts 10 ms (so that the clock's resolution and a run's set-up are noise), then
/// `repetitions` runs of that count; prints the median nanoseconds per operation, and the fastest
/// and slowest runs'. `false` if the operation or the contender is unknown.
func timeOperation(_ operation: String, _ contender: String, _ count: Int, repetitions: Int = 15) -> Bool {
    let clock = ContinuousClock()
    var count = count
    while true {
        var known = true
        let elapsed = clock.measure { known = perform(operation, contender, count) }
        guard known else { return false }
        if elapsed >= .milliseconds(10) { break }
        count *= 2
    }
    let nanoseconds = (0..<repetitions).map { _ in
        let elapsed = clock.measure { _ = perform(operation, contender, count) }
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(count)
    }.sorted()
    func tenths(_ nanoseconds: Double) -> Double { (nanoseconds * 10).rounded() / 10 }
    print(
        "\(tenths(nanoseconds[repetitions / 2])) ns per operation, median of \(repetitions) runs of \(count)"
            + " operations (fastest \(tenths(nanoseconds[0])), slowest \(tenths(nanoseconds[repetitions - 1])))")
    return true
}

var arguments = Array(CommandLine.arguments.dropFirst())
let timing = arguments.first == "--time"
if timing { arguments.removeFirst() }
guard arguments.count == 3, let count = Int(arguments[2]), count > 0 else {
    print("usage: PetalProbe [--time] OPERATION CONTENDER COUNT")
    exit(2)
}
PetalContender.prepare()
let (operation, contender) = (arguments[0], arguments[1])
if !(timing ? timeOperation(operation, contender, count) : perform(operation, contender, count)) {
    print("unknown operation or contender: \(operation), \(contender)")
    exit(2)
}
