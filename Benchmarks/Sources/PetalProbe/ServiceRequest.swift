import CBenchSupport
import NIOCore
import NIOEmbedded
import Petal
import Synchronization

/// One request of the example service (`Examples/Service`), without the server, the backends'
/// timers or `await`, four ways: the `petal` variant's promises, combinator and timeout; the
/// `batch` variant's `PromiseBatch`; the `nio` variant's `EventLoopPromise`s, `whenAllSucceed`
/// and scheduled deadline; and the `callbacks` floor's countdown and scheduled deadline. Each
/// backend call is a completion handler kept until the call answers (as the service's
/// `BackendCall` keeps it), and a call given up on is stopped (one count). `answered` of `calls` answer; if that is not all, the
/// deadline passes.
///
/// For `Scripts/profile`: callgrind's counts of these loops are what each variant's
/// abstractions cost a request, exactly, where the server's CPU time is blurred by everything
/// else on the machine. Everything runs on this thread: Petal's deadline on a manual clock,
/// NIO's and the floor's on an `EmbeddedEventLoop`. The combined outcome is observed with a
/// callback where the service awaits it.
enum ServiceRequest {
    /// The calls' completion handlers, as the backends keep them until they answer.
    typealias Completion = (Int) -> Void

    /// The `petal` variant (`PetalFanout`).
    static func petal(calls: Int, answered: Int) {
        var completions: [Completion] = []
        completions.reserveCapacity(calls)
        let futures = (0..<calls).map { _ in
            let promise = Promise<Int>()
            completions.append { promise.fulfil(with: $0) }
            // The service's `call.cancel()`: stops the call when every consumer has given up.
            promise.cancelWhenRequested { bench_count_add() }
            return promise.future
        }
        let all = Future.fulfillingWhen(futures).timeout(after: .milliseconds(20), clock: petalClock)
        all.whenResolved { _ in bench_count_add() }
        answer(completions, count: answered)
        if answered < calls { petalClock.advance(by: .milliseconds(20)) }
    }

    /// The `batch` variant (`BatchFanout`): the calls' promises in one `PromiseBatch`, each
    /// completion handler capturing the batch alone and fulfilling the next slot
    /// (`fulfilNext(with:)`), with one stop for the batch that stops every call, as the service
    /// registers it.
    static func batch(calls: Int, answered: Int) {
        let batch = PromiseBatch<Int>(count: calls)
        var completions: [Completion] = []
        completions.reserveCapacity(calls)
        for _ in 0..<calls { completions.append { batch.fulfilNext(with: $0) } }
        batch.cancelWhenRequested { bench_count_add() }
        let all = batch.all.timeout(after: .milliseconds(20), clock: petalClock)
        all.whenResolved { _ in bench_count_add() }
        answer(completions, count: answered)
        if answered < calls { petalClock.advance(by: .milliseconds(20)) }
    }

    /// `batch` with each completion handler capturing its slot (a reference and an index: a
    /// closure context of its own, one allocation a call), as the service did before arrivals.
    static func batchSlots(calls: Int, answered: Int) {
        batch(calls: calls, answered: answered, stopEachSlot: false)
    }

    /// `batch` with a stop for each slot, as the service registered them before the batch had
    /// a stop of its own: every pending call stopped by its slot's.
    static func batchSlotStops(calls: Int, answered: Int) {
        batch(calls: calls, answered: answered, stopEachSlot: true)
    }

    private static func batch(calls: Int, answered: Int, stopEachSlot: Bool) {
        let batch = PromiseBatch<Int>(count: calls)
        var completions: [Completion] = []
        completions.reserveCapacity(calls)
        for index in 0..<calls {
            let slot = batch[index]
            completions.append { slot.fulfil(with: $0) }
            if stopEachSlot { slot.cancelWhenRequested { bench_count_add() } }
        }
        // Each call's cancel(), answered or not (an answered call's does nothing), as one count.
        if !stopEachSlot { batch.cancelWhenRequested { bench_count_add() } }
        let all = batch.all.timeout(after: .milliseconds(20), clock: petalClock)
        all.whenResolved { _ in bench_count_add() }
        answer(completions, count: answered)
        if answered < calls { petalClock.advance(by: .milliseconds(20)) }
    }

    /// The `nio` variant (`NIOFanout`), already on the loop.
    static func nio(calls: Int, answered: Int) {
        let promises = (0..<calls).map { _ in loop.makePromise(of: Int.self) }
        let completions: [Completion] = promises.map { promise in { promise.succeed($0) } }
        let deadline = loop.scheduleTask(in: .milliseconds(20)) {
            for (index, promise) in promises.enumerated() where index >= answered {
                bench_count_add()  // the call's cancel()
                promise.fail(DeadlinePassed())
            }
        }
        let all = EventLoopFuture.whenAllSucceed(promises.map(\.futureResult), on: loop)
        all.whenSuccess { _ in deadline.cancel() }
        all.map { $0.reduce(0, +) }.whenComplete { _ in bench_count_add() }
        answer(completions, count: answered)
        if answered < calls { loop.advanceTime(by: .milliseconds(20)) }
    }

    /// The `callbacks` floor (`CallbackFanout`).
    static func callbacks(calls: Int, answered: Int) {
        let gathering = Gathering(expecting: calls)
        let completions: [Completion] = (0..<calls).map { _ in { gathering.add($0) } }
        gathering.setUp(
            timeout: loop.scheduleTask(in: .milliseconds(20)) {
                gathering.expire(stopping: calls - answered)
            })
        answer(completions, count: answered)
        if answered < calls { loop.advanceTime(by: .milliseconds(20)) }
    }

    private static let petalClock = DeadlineClock.manual()
    private static let loop = EmbeddedEventLoop()

    private static func answer(_ completions: [Completion], count: Int) {
        for (value, completion) in completions.prefix(count).enumerated() { completion(value) }
    }

    private struct DeadlinePassed: Error {}
}

/// The floor's state, as `CallbackFanout`'s: a sum, a countdown with one step for the set-up,
/// and a flag for who finishes.
private final class Gathering: @unchecked Sendable {
    // @unchecked: one thread here; the atomics are the service's, kept for the same costs.
    private let sum = Atomic<Int>(0)
    private let remaining: Atomic<Int>
    private let decided = Atomic<Bool>(false)
    private var timeout: Scheduled<Void>?

    init(expecting count: Int) {
        remaining = Atomic(count + 1)
    }

    func add(_ value: Int) {
        sum.wrappingAdd(value, ordering: .relaxed)
        countDown()
    }

    func setUp(timeout: Scheduled<Void>) {
        self.timeout = timeout
        countDown()
    }

    func expire(stopping pending: Int) {
        guard !decided.exchange(true, ordering: .acquiringAndReleasing) else { return }
        for _ in 0..<pending { bench_count_add() }  // each pending call's cancel()
        bench_count_add()
    }

    private func countDown() {
        guard remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0,
            !decided.exchange(true, ordering: .acquiringAndReleasing)
        else { return }
        timeout?.cancel()
        bench_count_add()
    }
}
