import Foundation
import Petal
import PetalPrototypes

/// The fan-out of a service request, as `async` code writes it: N calls to a callback-based
/// backend at once, one deadline over them all, the results added up, and the calls still
/// running when the deadline passes cancelled. Written three ways, with Petal (promises,
/// `fulfillingWhen` and `timeout`), with a task group (a child per call bridged with a
/// continuation, and a child for the deadline) and with `async let` (N = 3 only); and a fourth, to
/// measure what Petal's promise of two objects costs here, with a one-object promise
/// (`UniquePromise`, a prototype that does not ship); and a fifth with Petal's batch, the
/// request's promises as slots of one object (`PromiseBatch`): no object per call at all.
///
/// One request in four has a late call that never answers by itself: its deadline passes once
/// every other call has answered, and the late call must then be asked to stop, so the
/// cancellation is measured, not only the happy path. The deadline is a signal the round fires,
/// not a timer (a manual `DeadlineClock` for Petal, a continuation for the others): the round
/// never waits on time. The backend answers on the calling thread or the child's.
///
/// A round is `requests` fan-outs, one after another; each checks its sum (or its timeout) and
/// that the late call was stopped exactly once.
public struct FanOutCell: Sendable {
    /// How the fan-out is written.
    public enum Style: String, Sendable, CaseIterable {
        case petal = "Petal"
        case taskGroup = "task group"
        case asyncLet = "async let"
        /// Petal with a promise of one object (`UniquePromise`, PetalPrototypes): what the
        /// promise's second object costs the fan-out (issue 37's 5x, measured, not shipped).
        case uniquePromisePrototype = "Petal, non-copyable promise (prototype)"
        /// Petal with the request's promises in one object (`PromiseBatch`): a slot per call, no
        /// object.
        case promiseBatch = "Petal, promise batch"

        /// Whether the style runs on the calling thread, with no `await`.
        var isPetal: Bool { self == .petal || self == .uniquePromisePrototype || self == .promiseBatch }
    }

    /// Calls per request.
    public let width: Int
    public let style: Style

    /// The widths measured, and the styles at each (`async let` is written out by hand: N = 3).
    public static let all: [FanOutCell] =
        [3, 32, 1024].flatMap { width in
            Style.allCases.filter { $0 != .asyncLet || width == 3 }.map { FanOutCell(width: width, style: $0) }
        }

    /// The workload's name in the suite's table.
    public var workloadName: String { "fan-out N=\(width)" }

    /// Requests per round: about 4,096 calls, at least four requests (one of them late).
    public var requests: Int { max(4, 4_096 / width) }

    /// Calls per round: what the table's operations per second count.
    public var operations: Int { requests * width }

    /// Whether request `index` of a round has a late call.
    static func isLate(_ index: Int) -> Bool { index % 4 == 0 }

    /// Runs one round; stops the process if any request's answer is wrong.
    public func runRound() async {
        if style.isPetal { return runRoundOnThisThread() }
        var tally = Tally(cell: self)
        for index in 0..<requests {
            let late = Self.isLate(index)
            let sum: Int? =
                switch style {
                case .petal, .uniquePromisePrototype, .promiseBatch:
                    preconditionFailure("runRoundOnThisThread runs Petal's")
                case .taskGroup: await taskGroupRequest(late: late, stops: tally.stops)
                case .asyncLet: await asyncLetRequest(late: late, stops: tally.stops)
                }
            tally.check(sum, late: late)
        }
        tally.finish()
    }

    /// Runs one round of Petal's style or a prototype's, all on this thread (no `await`): for
    /// the probe too, whose callgrind counts of it are the fan-out's exact cost per call.
    public func runRoundOnThisThread() {
        precondition(style.isPetal)
        var tally = Tally(cell: self)
        for index in 0..<requests {
            let late = Self.isLate(index)
            let sum =
                switch style {
                case .petal: petalRequest(late: late, stops: tally.stops)
                case .uniquePromisePrototype: uniquePromiseRequest(late: late, stops: tally.stops)
                case .promiseBatch: promiseBatchRequest(late: late, stops: tally.stops)
                case .taskGroup, .asyncLet: preconditionFailure("runRound runs the async styles")
                }
            tally.check(sum, late: late)
        }
        tally.finish()
    }

    /// A round's answers, checked as they come.
    private struct Tally {
        let cell: FanOutCell
        let stops = StopCount()
        var timeouts = 0

        mutating func check(_ sum: Int?, late: Bool) {
            if late {
                if sum != nil { fatalError("\(cell.style): a late request did not time out") }
                timeouts += 1
            } else if sum != cell.width * (cell.width - 1) / 2 {
                fatalError("\(cell.style): a request's sum is \(sum.map(String.init) ?? "nil")")
            }
        }

        func finish() {
            if stops.value != timeouts {
                fatalError("\(cell.style): \(stops.value) late calls stopped for \(timeouts) timeouts, not one each")
            }
        }
    }

    // MARK: Petal

    /// One clock per process: each late request advances it past its deadline.
    private static let clock = DeadlineClock.manual()

    private func petalRequest(late: Bool, stops: StopCount) -> Int? {
        let promises = (0..<width).map { _ in Promise<Int>() }
        if late { promises[width - 1].cancelWhenRequested { stops.increment() } }
        let all = Future.fulfillingWhen(promises.map(\.future)).timeout(after: .seconds(1), clock: Self.clock)
        for index in 0..<(late ? width - 1 : width) { promises[index].fulfil(with: index) }
        // The backend holds the late call's promise until it is stopped (dropped, a promise
        // would cancel its future by itself, and the optimiser may end the array's life here).
        if late { withExtendedLifetime(promises) { Self.clock.advance(by: .seconds(1)) } }
        guard let outcome = all.peek() else { preconditionFailure("the request is resolved by now") }
        return outcome.value.map { $0.reduce(0, +) }
    }

    /// As `petalRequest`, with one-object promises: in a buffer, since an `Array` cannot hold a
    /// non-copyable element.
    private func uniquePromiseRequest(late: Bool, stops: StopCount) -> Int? {
        let promises = UnsafeMutablePointer<UniquePromise<Int>>.allocate(capacity: width)
        for index in 0..<width { (promises + index).initialize(to: UniquePromise()) }
        if late { promises[width - 1].cancelWhenRequested { stops.increment() } }
        var futures: [Future<Int>] = []
        futures.reserveCapacity(width)
        for index in 0..<width { futures.append(promises[index].future) }
        let all = Future.fulfillingWhen(futures).timeout(after: .seconds(1), clock: Self.clock)
        for index in 0..<(late ? width - 1 : width) { promises[index].fulfil(with: index) }
        if late { Self.clock.advance(by: .seconds(1)) }
        promises.deinitialize(count: width)
        promises.deallocate()
        guard let outcome = all.peek() else { preconditionFailure("the request is resolved by now") }
        return outcome.value.map { $0.reduce(0, +) }
    }

    /// As `petalRequest`, with the request's promises in one batch: a slot per call.
    private func promiseBatchRequest(late: Bool, stops: StopCount) -> Int? {
        let batch = PromiseBatch<Int>(count: width)
        if late { batch.cancelWhenRequested(width - 1) { stops.increment() } }
        let all = batch.all.timeout(after: .seconds(1), clock: Self.clock)
        for index in 0..<(late ? width - 1 : width) { batch.fulfil(index, with: index) }
        if late { withExtendedLifetime(batch) { Self.clock.advance(by: .seconds(1)) } }
        guard let outcome = all.peek() else { preconditionFailure("the request is resolved by now") }
        return outcome.value.map { $0.reduce(0, +) }
    }

    // MARK: Task group

    /// What a child of the group reports.
    private enum Arrival: Sendable {
        case answer(Int?)
        case deadline
    }

    private func taskGroupRequest(late: Bool, stops: StopCount) async -> Int? {
        let deadline = Signal()
        let width = self.width
        return await withTaskGroup(of: Arrival.self) { group in
            for index in 0..<width {
                group.addTask {
                    if late && index == width - 1 { return .answer(await Self.lateCall(stops: stops)) }
                    return .answer(await Self.call(index))
                }
            }
            group.addTask {
                await deadline.wait()
                return .deadline
            }
            var sum = 0
            var answered = 0
            while let arrival = await group.next() {
                switch arrival {
                case .answer(let value?):
                    sum += value
                    answered += 1
                    if answered == width {
                        group.cancelAll()  // the deadline's child
                        return sum
                    }
                    // Every call but the late one has answered: the deadline passes now.
                    if late && answered == width - 1 { deadline.fire() }
                case .answer(nil), .deadline:
                    group.cancelAll()  // the late call
                    return nil
                }
            }
            return nil
        }
    }

    // MARK: async let

    private func asyncLetRequest(late: Bool, stops: StopCount) async -> Int? {
        precondition(width == 3)
        let answered = AnswerCount()
        // Its own task, so that the deadline can cancel the three children (async let's children
        // are cancelled with the task that awaits them).
        let request = Task {
            async let first = Self.call(0, counting: answered)
            async let second = Self.call(1, counting: answered)
            async let third = late ? Self.lateCall(stops: stops) : Self.call(2, counting: answered)
            let values = await [first, second, third]
            return values.contains(nil) ? nil : values.reduce(0) { $0 + ($1 ?? 0) }
        }
        if late {
            await answered.reach(2)
            request.cancel()  // the deadline
        }
        return await request.value
    }

    // MARK: The backend

    /// A call that answers at once through its completion handler, bridged as a service does.
    private static func call(_ index: Int, counting answered: AnswerCount? = nil) async -> Int? {
        let value = await withCheckedContinuation { continuation in
            answer(index) { continuation.resume(returning: $0) }
        }
        answered?.increment()
        return value
    }

    /// The backend's callback API: answers on the calling thread.
    private static func answer(_ index: Int, _ completion: @Sendable (Int) -> Void) {
        completion(index)
    }

    /// A call that never answers by itself; cancelled, it stops (counted) and returns nil.
    private static func lateCall(stops: StopCount) async -> Int? {
        let stopped = Signal()
        await withTaskCancellationHandler {
            await stopped.wait()
        } onCancel: {
            stops.increment()
            stopped.fire()
        }
        return nil
    }
}

/// A one-shot signal a task can wait for: fired at most once; a wait after the fire returns at
/// once, and a waiting task's cancellation ends its wait.
private final class Signal: @unchecked Sendable {
    // @unchecked: `fired` and `waiter` are only touched with `lock` held.
    private let lock = NSLock()
    private var fired = false
    private var waiter: CheckedContinuation<Void, Never>?

    func fire() {
        let resumed: CheckedContinuation<Void, Never>? = lock.withLock {
            guard !fired else { return nil }
            fired = true
            defer { waiter = nil }
            return waiter
        }
        resumed?.resume()
    }

    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = lock.withLock {
                    if fired { return true }
                    waiter = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            fire()
        }
    }
}

/// Calls stopped by a request.
private final class StopCount: @unchecked Sendable {
    // @unchecked: `count` is only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Calls answered, with a wait for a count (the `async let` request's deadline).
private final class AnswerCount: @unchecked Sendable {
    // @unchecked: `count` and `waiter` are only touched with `lock` held.
    private let lock = NSLock()
    private var count = 0
    private var target = 0
    private var waiter: CheckedContinuation<Void, Never>?

    func increment() {
        let resumed: CheckedContinuation<Void, Never>? = lock.withLock {
            count += 1
            guard let waiter, count >= target else { return nil }
            self.waiter = nil
            return waiter
        }
        resumed?.resume()
    }

    func reach(_ wanted: Int) async {
        await withCheckedContinuation { continuation in
            let now = lock.withLock {
                if count >= wanted { return true }
                target = wanted
                waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }
}
