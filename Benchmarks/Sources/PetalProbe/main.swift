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
///
///     PetalProbe OPERATION CONTENDER COUNT
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
func run<C: Contender>(_: C.Type, _ operation: String, _ count: Int) -> Bool {
    Delivered.reset()
    var expected = count
    if let (family, size) = sized(operation) {
        precondition(size > 0 && count.isMultiple(of: size), "COUNT must be a multiple of \(size)")
        let groups = count / size
        switch family {
        case "subscribers N":
            for _ in 0..<groups {
                let handle = C.make()
                C.escape(handle)
                for _ in 0..<size { C.subscribeCounting(handle) }
                C.fulfil(handle, with: 1)
                C.release(handle)
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
        for value in 0..<count {
            let handle = C.make()
            C.escape(handle)
            C.subscribeCounting(handle)
            C.fulfil(handle, with: value)
            C.release(handle)
        }
    case "subscribe after fulfil":
        let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
        for value in 0..<count {
            let handle = C.make()
            C.escape(handle)
            C.fulfil(handle, with: value)
            C.subscribe(handle, callback)
            C.release(handle)
        }
    case "late subscriber":
        // One resolved promise, subscribed to again and again: an operation is one subscription,
        // whose callback runs at once (a closure value made once, as a user's own function).
        let callback: @Sendable (Int) -> Void = { _ in bench_count_add() }
        let handle = C.make()
        C.escape(handle)
        C.fulfil(handle, with: 1)
        for _ in 0..<count { C.subscribe(handle, callback) }
        C.release(handle)
    case "hot promise":
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
    case "fulfil race":
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
    case "chain K=100":
        // An operation is one step.
        precondition(count.isMultiple(of: 100))
        for _ in 0..<count / 100 { C.runChain(links: 100, value: 7) }
        expected = count / 100
    default:
        return false
    }
    precondition(Delivered.count == expected, "\(Delivered.count) callbacks, expected \(expected)")
    return true
}

/// The family and size of a sized operation: ("all width", 16) for "all width=16"; nil for the
/// others (the older "chain K=100" and "service request N=32" included).
func sized(_ operation: String) -> (family: Substring, size: Int)? {
    guard let equals = operation.firstIndex(of: "="), let size = Int(operation[operation.index(after: equals)...])
    else { return nil }
    let family = operation[..<equals]
    return ["subscribers N", "all width", "race width", "chain depth"].contains(family) ? (family, size) : nil
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    print("usage: PetalProbe OPERATION CONTENDER COUNT")
    exit(2)
}
PetalContender.prepare()
let (operation, contender) = (arguments[1], arguments[2])
let known: Bool
if operation.hasPrefix("service request N=32") {
    // Petal's, NIO's and the floor's share of one request of the example service
    // (ServiceRequest): an operation is one backend call, 32 to a request; in "half late", 16
    // answer and the deadline passes for the rest.
    precondition(count.isMultiple(of: 32))
    let answered = operation.hasSuffix("half late") ? 16 : 32
    let request: ((Int, Int) -> Void)? =
        switch contender {
        case "Petal": ServiceRequest.petal
        case "NIO": ServiceRequest.nio
        case "callbacks": ServiceRequest.callbacks
        default: nil
        }
    if let request {
        Delivered.reset()
        for _ in 0..<count / 32 { request(32, answered) }
        precondition(Delivered.count == count / 32 * (1 + 32 - answered), "\(Delivered.count) deliveries")
    }
    known = request != nil
} else {
    switch contender {
    case "Petal": known = run(PetalContender.self, operation, count)
    case "C core": known = run(RawCoreContender.self, operation, count)
    case "C core (C11 atomics)":
        print("C core (C11 atomics): built on \(RawCoreC11Contender.backend)")
        known = RawCoreC11Contender.backend == "C11" && run(RawCoreC11Contender.self, operation, count)
    case "bare": known = run(BareContender.self, operation, count)
    case "Mutex": known = run(LockedContender<MutexPromise>.self, operation, count)
    case "Mutex (generic)": known = run(LockedContender<GenericMutexPromise<Int>>.self, operation, count)
    case "bare (generic)": known = run(LockedContender<GenericBarePromise<Int>>.self, operation, count)
    default: known = false
    }
}
if !known {
    print("unknown operation or contender: \(operation), \(contender)")
    exit(2)
}
