import Petal

/// One piece of a soak round: made on the test's thread, played by every soak thread in the role
/// the round gives it, and checked on the test's thread once the threads are joined.
protocol SoakScenario: Sendable {
    /// The public API calls the scenario makes in all, set-up and every role together. The
    /// round adds up what was actually done and checks it against this.
    var operations: Int { get }

    /// Plays role `role` (0 to threads - 1) on the calling thread; returns the API calls made.
    func play(role: Int, on worker: SoakWorker) -> Int

    /// Adds the scenario's results, and the calls its set-up made, to `tally`.
    func check(into tally: inout SoakTally)
}

/// One soak thread's own state during a round: touched only by its thread while the round
/// runs, and by the test's thread after the join.
final class SoakWorker: @unchecked Sendable {
    // @unchecked: see above; `pthread_join` orders the two.
    var tally = SoakTally()
    /// Promises this thread drops, in the order of the scenarios that drop them: each is the
    /// only reference to its promise, so dropping it is the abandonment.
    var promisesToDrop: [Promise<SoakToken>?] = []
    var dropped = 0

    /// Drops the next promise on the list; its deinit cancels its future, here.
    func dropNextPromise() {
        promisesToDrop[dropped] = nil
        dropped += 1
    }
}

/// The outcome numbers of a scenario's resolutions.
private func code(_ index: Int, _ part: Int) -> Int { index * 8 + part }

/// Bits `0..<count` of a callback mask.
private func bits(_ count: Int) -> UInt64 { count == 0 ? 0 : UInt64.max >> (64 - count) }

/// Resolvers race on one promise that ignores repeats, while every thread subscribes before and
/// after its own attempt.
///
/// Checks: exactly one resolver wins; every callback runs once, sees the winner's outcome, and
/// runs after the callbacks its thread subscribed before it; after a winning call returns, a new
/// callback runs at once, on the winner's thread.
final class RacingResolution: SoakScenario {
    private let promise = Promise<SoakToken>(onRepeatedResolution: .ignore)
    private let record = SoakRecord()
    private let index: Int
    private let threads: Int

    init(index: Int, threads: Int) {
        self.index = index
        self.threads = threads
    }

    /// Roles 0, 1 and 2 fulfil, reject and cancel.
    private var resolvers: Int { min(threads, 3) }

    var operations: Int { 1 + 3 * threads + resolvers }

    func play(role: Int, on worker: SoakWorker) -> Int {
        let (record, future, first) = (record, promise.future, role * 3)
        future.whenResolved { outcome in
            record.saw(SoakCode.of(outcome))
            record.ran(first)
        }
        future.whenResolved { _ in record.ran(first + 1, after: first) }
        guard role < resolvers else {
            future.whenResolved { _ in record.ran(first + 2, after: first + 1) }
            return 3
        }
        let part = code(index, role)
        let (won, outcome): (Bool, Int)
        switch role {
        case 0: (won, outcome) = (promise.fulfil(with: SoakToken(part)), SoakCode.fulfilled(part))
        case 1: (won, outcome) = (promise.reject(with: SoakError(part)), SoakCode.rejected(part))
        default: (won, outcome) = (promise.cancel(withIndirectError: SoakError(part)), SoakCode.cancelled(part))
        }
        if won { record.won(outcome) }
        future.whenResolved { _ in record.ran(first + 2, after: first + 1) }
        // The winner delivered every waiter before its call returned, so the future is resolved
        // and the callback above ran at once, on this thread. A loser may have come back while
        // the winner was still delivering, when the callback queues behind the others instead.
        if won && !record.hasRun(first + 2) { record.wrong() }
        return 4
    }

    func check(into tally: inout SoakTally) {
        tally.operations += 1
        record.check(expecting: bits(3 * threads), race: true, into: &tally, "racing resolution \(index)")
    }
}

/// One thread drops the only reference to an unresolved promise while the others subscribe,
/// chain and wait on its future.
///
/// Checks: the future is cancelled with an `AbandonedPromiseError`, already when the drop
/// returns; every callback hears it once, in order; a chain skips its `then`, recovers, runs its
/// `always`, and is fulfilled with the recovery; a wait with a short timeout returns either
/// nothing or that cancellation.
final class Abandonment: SoakScenario {
    private let future: Future<SoakToken>
    private let record = SoakRecord()
    private let index: Int
    private let threads: Int

    /// The `then` that must never run after a failure.
    private static let forbidden = 63

    init(index: Int, threads: Int, workers: [SoakWorker]) {
        self.index = index
        self.threads = threads
        let promise = Promise<SoakToken>()
        future = promise.future
        // Role 0 plays on thread (threads - index) % threads; it gets the only reference.
        workers[(threads - index % threads) % threads].promisesToDrop.append(promise)
    }

    /// Whether role 2 waits, with a timeout short enough that the wait often times out, rather
    /// than subscribe: one abandonment in four, so timed-out waits stay a small part of the time.
    private var roleTwoWaits: Bool { threads > 2 && (index / SoakCycle.length).isMultiple(of: 4) }

    var operations: Int {
        let subscribers = max(0, threads - 2) - (roleTwoWaits ? 1 : 0)
        return 1 + 2 + 4 + (roleTwoWaits ? 1 : 0) + 2 * subscribers
    }

    func play(role: Int, on worker: SoakWorker) -> Int {
        let (record, future) = (record, future)
        switch role {
        case 0:
            future.whenCancelled { error in
                if !(error is AbandonedPromiseError) { record.wrong() }
                record.ran(0)
            }
            worker.dropNextPromise()
            // The drop released the last reference, so the promise's deinit cancelled the future
            // and delivered it on this thread before the assignment finished.
            if !record.hasRun(0) { record.wrong() }
            return 2
        case 1:
            let recovered = code(index, 1)
            future
                .then { _ -> SoakToken in
                    record.ran(Abandonment.forbidden)
                    return SoakToken(recovered)
                }
                .recover { error in
                    if !(error is AbandonedPromiseError) { record.wrong() }
                    record.ran(1)
                    return SoakToken(recovered)
                }
                .always { record.ran(2, after: 1) }
                .whenFulfilled { token in
                    if token.code != recovered { record.wrong() }
                    record.ran(3, after: 2)
                }
            return 4
        case 2 where roleTwoWaits:
            if let outcome = future.wait(timeout: .microseconds(20)) {
                if SoakCode.of(outcome) != SoakCode.abandoned { record.wrong() }
            } else {
                worker.tally.timedOutWaits += 1
            }
            return 1
        default:
            let first = 2 * role
            future.whenAnyError { error in
                if !(error is AbandonedPromiseError) { record.wrong() }
                record.ran(first)
            }
            future.whenResolved { _ in record.ran(first + 1, after: first) }
            return 2
        }
    }

    func check(into tally: inout SoakTally) {
        tally.operations += 1
        var expected = bits(4)
        for role in 2..<max(2, threads) where !(role == 2 && roleTwoWaits) {
            expected |= 0b11 << (2 * role)
        }
        record.check(expecting: expected, race: false, into: &tally, "abandonment \(index)")
        if future.peek().map({ SoakCode.of($0) }) != SoakCode.abandoned {
            tally.wrongOutcomes += 1
            tally.problem("abandonment \(index): the future is \(describe(future.peek()))")
        }
    }
}

/// Every thread makes its own promise, subscribes before and after resolving it, chains
/// `then`, `recover` and `always` onto it, and waits on it: all on one thread, so everything is
/// deterministic and checked where it happens.
///
/// The failing step returns a rejected future instead of throwing. Swift Testing keeps a
/// backtrace of every error thrown while a test runs (its `swift_willThrow` hook), and lets go
/// of them only when the test ends, so a soak that threw would see the harness's heap grow, by
/// about a kilobyte a throw, and not Petal's.
///
/// Checks: callbacks subscribed before the resolution have all run, in order, when the resolving
/// call returns; callbacks subscribed after it run at once; the chain runs exactly the steps the
/// outcome calls for, in order, and ends with the right value; a wait on a future only this
/// thread can resolve times out, and once it is resolved a wait returns its outcome.
final class LocalChain: SoakScenario {
    private let index: Int
    private let threads: Int

    init(index: Int, threads: Int) {
        self.index = index
        self.threads = threads
    }

    /// 0: fulfilled; 1: fulfilled, but the second `then` fails; 2: rejected.
    private var variant: Int { (index / SoakCycle.length) % 3 }

    /// Whether role 0 also waits for a future that cannot resolve in time: a timed-out wait
    /// costs a real timer, so only one local chain in 32 does it.
    private var waitsInVain: Bool { (index / SoakCycle.length).isMultiple(of: 32) }

    /// The calls of one role, without the wait in vain.
    private static let perRole = 13

    var operations: Int { threads * LocalChain.perRole + (waitsInVain ? 1 : 0) }

    func play(role: Int, on worker: SoakWorker) -> Int {
        let (record, variant, part) = (SoakRecord(), variant, code(index, role))
        let promise = Promise<Int>()
        let future = promise.future
        future.whenResolved { _ in record.ran(0) }
        future.whenResolved { _ in record.ran(1, after: 0) }
        future.whenResolved { _ in record.ran(2, after: 1) }
        let chain =
            future
            .then { value in
                record.ran(3, after: 2)
                return value + 1
            }
            .then { value in
                record.ran(4, after: 3)
                // A rejected future rather than a throw: see the type's comment.
                return variant == 1 ? Future<Int>.rejected(with: SoakError(part)) : .fulfilled(with: value * 2)
            }
            .recover { _ in
                record.ran(5)
                return -1
            }
            .always { record.ran(6, after: variant == 0 ? 4 : 5) }
        var calls = LocalChain.perRole
        if role == 0 && waitsInVain {
            // Nobody else can resolve this future, so the wait must time out.
            if future.wait(timeout: .microseconds(1)) != nil { record.wrong() }
            worker.tally.timedOutWaits += 1
            calls += 1
        }
        if variant == 2 {
            promise.reject(with: SoakError(part))
        } else {
            promise.fulfil(with: part)
        }
        // Inline callbacks run before the resolving call returns.
        let before: UInt64 = variant == 0 ? 0b101_1111 : variant == 1 ? 0b111_1111 : 0b110_0111
        if !record.hasRun(all: before) { record.wrong() }
        future.whenResolved { _ in record.ran(7, after: 2) }
        chain.whenResolved { _ in record.ran(8, after: 6) }
        // Subscribed after the resolution: they ran at once, on this thread.
        if !record.hasRun(7) || !record.hasRun(8) { record.wrong() }
        let expected = variant == 0 ? (part + 1) * 2 : -1
        if chain.peek()?.value != expected { record.wrong() }
        // Resolved now, so the wait returns its outcome without waiting.
        let outcome = future.wait(timeout: .microseconds(1)).map { SoakCode.of($0) }
        if outcome != (variant == 2 ? SoakCode.rejected(part) : SoakCode.fulfilled(part)) { record.wrong() }
        record.check(expecting: before | 0b1_1000_0000, race: false, into: &worker.tally, "local chain \(index)")
        return calls
    }

    /// Nothing left to check: each role checked its own chain where it played it.
    func check(into tally: inout SoakTally) {}
}

/// Three promises resolved by different threads while one thread combines them with
/// `fulfillingWhen`, `firstResolved`, `firstFulfilled` and `allResolved`.
///
/// Checks: each combined future resolves once, with exactly what its inputs allow (in input
/// order where order is promised); each input's one resolver wins.
final class Combinators: SoakScenario {
    private let promises = (0..<3).map { _ in Promise<SoakToken>() }
    private let record = SoakRecord()
    private let index: Int
    private let threads: Int

    init(index: Int, threads: Int) {
        self.index = index
        self.threads = threads
    }

    /// 0 and 1: every input is fulfilled; 2: input 1 is rejected; 3: input 2 is cancelled.
    private var variant: Int { (index / SoakCycle.length) % 4 }

    /// The number (``SoakCode``) of input `input`'s outcome.
    private func planned(_ input: Int) -> Int {
        let part = code(index, input)
        switch (variant, input) {
        case (2, 1): return SoakCode.rejected(part)
        case (3, 2): return SoakCode.cancelled(part)
        default: return SoakCode.fulfilled(part)
        }
    }

    /// What a combined future is cancelled with when an input fails: that input's error.
    private var failure: Int? {
        switch variant {
        case 2: return SoakCode.cancelled(code(index, 1))
        case 3: return SoakCode.cancelled(code(index, 2))
        default: return nil
        }
    }

    var operations: Int { 3 + 4 * 2 + 3 }

    func play(role: Int, on worker: SoakWorker) -> Int {
        var calls = 0
        if role == 0 {
            combine()
            calls += 8
        }
        // Input k is resolved by role k modulo the thread count: by one thread only.
        for input in 0..<3 where input % threads == role {
            let part = code(index, input)
            let resolved: Bool
            switch planned(input) % 4 {
            case 1: resolved = promises[input].reject(with: SoakError(part))
            case 2: resolved = promises[input].cancel(withIndirectError: SoakError(part))
            default: resolved = promises[input].fulfil(with: SoakToken(part))
            }
            if !resolved { record.wrong() }
            calls += 1
        }
        return calls
    }

    private func combine() {
        let (record, futures) = (record, promises.map(\.future))
        let planned = (0..<3).map(planned)
        let failure = failure
        let values = planned.filter { $0 % 4 == 0 }
        Future.fulfillingWhen(futures[0], futures[1], futures[2]).whenResolved { outcome in
            switch outcome {
            case .fulfilled(let (a, b, c)):
                if failure != nil || [a, b, c].map({ SoakCode.fulfilled($0.code) }) != planned { record.wrong() }
            default:
                if SoakCode.cancelled(with: outcome.error) != failure || !outcome.isCancelled { record.wrong() }
            }
            record.ran(0)
        }
        Future.firstResolved(of: futures).whenResolved { outcome in
            let number = SoakCode.of(outcome)
            if !values.contains(number) && number != failure { record.wrong() }
            record.ran(1)
        }
        Future.firstFulfilled(of: futures).whenResolved { outcome in
            if !values.contains(SoakCode.of(outcome)) { record.wrong() }
            record.ran(2)
        }
        Future.allResolved(futures).whenResolved { outcome in
            if outcome.value?.map({ SoakCode.of($0) }) != planned { record.wrong() }
            record.ran(3)
        }
    }

    func check(into tally: inout SoakTally) {
        tally.operations += 3
        record.check(expecting: bits(4), race: false, into: &tally, "combinators \(index)")
    }
}

/// A job started on one thread while another cancels it, directly or by a cancellation request
/// on its future.
///
/// Checks: exactly one of completing and cancelling wins; the job's future and every callback
/// on it agree with the winner.
final class JobRace: SoakScenario {
    private let job: RacingJob
    private let record = SoakRecord()
    private let index: Int
    private let threads: Int

    init(index: Int, threads: Int) {
        self.index = index
        self.threads = threads
        job = RacingJob(record: record)
    }

    var operations: Int { 1 + 2 + 1 + 2 * (threads - 2) }

    func play(role: Int, on worker: SoakWorker) -> Int {
        let (record, first) = (record, 2 * role)
        switch role {
        case 0:
            Future.start(running: job, with: index).whenResolved { outcome in
                record.saw(SoakCode.of(outcome))
                record.ran(0)
            }
            return 2
        case 1:
            if (index / SoakCycle.length).isMultiple(of: 2) {
                job.cancel(withIndirectError: SoakError(code(index, 1)))
            } else {
                job.future.requestCancellation()
            }
            return 1
        default:
            job.future.whenResolved { outcome in
                record.saw(SoakCode.of(outcome))
                record.ran(first)
            }
            job.future.whenResolved { _ in record.ran(first + 1, after: first) }
            return 2
        }
    }

    func check(into tally: inout SoakTally) {
        tally.operations += 1
        record.check(expecting: bits(1) | (bits(2 * threads) & ~bits(4)), race: true, into: &tally, "job race \(index)")
    }
}

/// A job that completes with its input as soon as it starts, and says which way it finished.
final class RacingJob: Job<Int, Int>, @unchecked Sendable {
    // @unchecked: its one stored property is immutable and Sendable.
    let record: SoakRecord

    init(record: SoakRecord) {
        self.record = record
        super.init()
    }

    override func start(with input: Int) {
        guard begin() else { return }
        if complete(with: input) { record.won(SoakCode.fulfilled(input)) }
    }

    override func wasCancelled(withIndirectError indirectError: (any Error)?) {
        record.won(SoakCode.cancelled(with: indirectError))
    }
}

/// The scenarios of a round, in the order they come, over and over: the local chains twice,
/// since they are the cheapest, the shared ones once each. A scenario's turn (its index divided by
/// the cycle's length) picks its variant, so every variant meets every thread count and role.
enum SoakCycle {
    static let length = 6

    static func scenario(_ index: Int, threads: Int, workers: [SoakWorker]) -> any SoakScenario {
        switch index % length {
        case 0: return RacingResolution(index: index, threads: threads)
        case 1, 4: return LocalChain(index: index, threads: threads)
        case 2: return Abandonment(index: index, threads: threads, workers: workers)
        case 3: return Combinators(index: index, threads: threads)
        default: return JobRace(index: index, threads: threads)
        }
    }
}
