import CBenchSupport
import Contenders
import Dispatch
import Foundation
import LibraryPromises
import Synchronization

/// `DrainProbe CONTENDER [--together]`: the hot drain at T = 2 with its two threads pinned to different
/// cores, so that every round drains half its callbacks from the other core's cache.
///
/// A round: this thread (core 0) makes a promise and subscribes 64 callbacks, the other thread
/// (core 1) subscribes 64 and goes back to sleep, and this thread fulfils the promise, which
/// runs all 128; only the fulfil is timed. Prints the median and quartiles over 20,000 rounds,
/// in nanoseconds; returns `false` if the contender is unknown.
///
/// With `together`, the two threads subscribe at the same time, as in the benchmark, so the
/// future's waiter blocks alternate between the cores instead of coming in two runs.
func drainAcrossCores(_ contender: String, together: Bool) -> Bool {
    switch contender {
    case "Petal": drainAcrossCores(PetalContender.self, together: together)
    case "Mutex (generic)": drainAcrossCores(LockedContender<GenericMutexPromise<Int>>.self, together: together)
    case "bare (generic)": drainAcrossCores(LockedContender<GenericBarePromise<Int>>.self, together: together)
    case "C core": drainAcrossCores(RawCoreContender.self, together: together)
    default: return false
    }
    return true
}

private func drainAcrossCores<C: Contender>(
    _: C.Type, together: Bool, perThread: Int = 64, rounds: Int = 20_000
) {
    let promise = HandleBox<C.Handle>()
    let wakeUp = DispatchSemaphore(value: 0)
    let started = Atomic<Int>(0)
    let subscribed = Atomic<Int>(0)
    precondition(bench_pin_to_cpu(0) == 0, "cannot pin to core 0")
    let other = Thread {
        precondition(bench_pin_to_cpu(1) == 0, "cannot pin to core 1")
        for round in 1...rounds {
            wakeUp.wait()
            started.store(round, ordering: .releasing)
            for _ in 0..<perThread { C.subscribeCounting(promise.handle!) }
            subscribed.store(round, ordering: .releasing)
        }
    }
    other.start()
    var nanoseconds: [Int64] = []
    nanoseconds.reserveCapacity(rounds)
    for round in 1...rounds {
        Delivered.reset()
        let handle = C.make()
        promise.handle = handle
        if together {
            wakeUp.signal()
            while started.load(ordering: .acquiring) < round { sched_yield() }
            for _ in 0..<perThread { C.subscribeCounting(handle) }
        } else {
            for _ in 0..<perThread { C.subscribeCounting(handle) }
            wakeUp.signal()
        }
        while subscribed.load(ordering: .acquiring) < round { sched_yield() }
        let start = bench_now_ns()
        C.fulfil(handle, with: 1)
        nanoseconds.append(bench_now_ns() - start)
        precondition(Delivered.count == 2 * perThread, "\(Delivered.count) callbacks, expected \(2 * perThread)")
        C.release(handle)
    }
    nanoseconds.sort()
    print(
        "\(C.name): a drain of \(2 * perThread) callbacks, half from the other core"
            + (together ? " (subscribed at once)" : "") + ": median \(nanoseconds[rounds / 2]) ns"
            + " (quartiles \(nanoseconds[rounds / 4]), \(nanoseconds[3 * rounds / 4])) over \(rounds) rounds")
}

let arguments = CommandLine.arguments
let together = arguments.count == 3 && arguments[2] == "--together"
guard arguments.count == 2 || together else {
    print("usage: DrainProbe CONTENDER [--together]   (Petal, Mutex (generic), bare (generic), C core)")
    exit(2)
}
PetalContender.prepare()
if !drainAcrossCores(arguments[1], together: together) {
    print("unknown contender: \(arguments[1])")
    exit(2)
}

/// The promise of the round in progress, handed to the other thread (ordered by the semaphore).
private final class HandleBox<Handle>: @unchecked Sendable {
    var handle: Handle?
}
