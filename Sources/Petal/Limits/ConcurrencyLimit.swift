import CPetal

/// At most a given number of operations in flight and a given number waiting; past that, an
/// operation is refused at once with a ``ConcurrencyLimitExceededError`` instead of queueing
/// without bound (a bulkhead, in resilience4j's and Polly's words).
///
/// ```swift
/// let limit = ConcurrencyLimit(maximum: 64, queue: 128)
///
/// func handle(_ request: Request) -> Future<Response> {
///     limit.run { backend.fetch(request.key) }  // a 503 at once when the limit is full
/// }
/// ```
///
/// An operation is a closure that starts work and returns its future. It is **in flight** from
/// the moment its closure begins until that future resolves: the limit counts the work, not its
/// consumers, so a consumer that gives up on a running operation frees its slot only once the
/// operation stops (its producer is asked, through the returned future's cancellation votes).
///
/// - Admission: while a slot is free and nothing waits, the closure runs at once; otherwise the
///   operation waits, in FIFO order, if fewer than `queue` wait; otherwise it is refused.
/// - A finished operation hands its slot to the oldest waiting one, on the thread that finished
///   it (the waiting operation's closure then runs on its context).
/// - A waiting operation whose consumers all gave up (a cancellation request reached its
///   future) leaves the queue at once, never starts, and its future is cancelled.
/// - Cost: below the limit, one compare-and-swap to enter and one to leave, no lock, and no
///   allocation beyond the closure that gives the slot back; the lock is taken only while the
///   limit is full (to queue, to hand a slot over, to leave the queue).
/// - The maximum may move while operations run: set by ``setMaximum(_:)`` (from configuration,
///   say), or with the load by an ``AdaptiveLimit`` (``init(adaptive:queue:clock:)``).
public final class ConcurrencyLimit: @unchecked Sendable {
    // @unchecked: `word` and `maximumWord` are reached only through C atomics, at addresses of
    // their own; the queue only under its lock; everything else is immutable or Sendable.

    /// Operations waiting at most. An adaptive limit's queue moves with its maximum: `queue` at
    /// its initial maximum, and in proportion to the maximum, rounded down, from there (see
    /// ``currentQueue``).
    public let queue: Int
    /// How the maximum moves with the load; nil for a maximum that moves only when set.
    public let adaptive: AdaptiveLimit?

    /// Operations in flight and waiting, one word (see `LimitWord`).
    let word: UnsafeMutablePointer<petal_atomic_word>
    /// The maximum: read without the lock, changed only with it held.
    private let maximumWord: UnsafeMutablePointer<petal_atomic_word>
    /// Requests a front door (PetalNIO's `LoadShedder`) has let through towards this limit and
    /// not answered yet (see ConcurrencyLimit+Arrivals.swift).
    let arrivalsWord: UnsafeMutablePointer<petal_atomic_word> = .allocate(capacity: 1)
    /// An adaptive limit's controller (see ConcurrencyLimit+Adaptive.swift); nil for a fixed one.
    let controller: LimitController?
    /// The controller, when it times the operations itself (``AdaptiveLimit/Timing/operations``).
    let operationTimer: LimitController?
    /// Whether `operationTimer` is set: what the inlined path of ``run(on:_:)`` reads.
    @usableFromInline
    let timesOperations: Bool
    /// The maximum at which the queue holds `queue` (an adaptive limit's initial maximum).
    private let queueAtMaximum: Int
    private let waiters = PosixLock(LimitQueue())
    private let refused = AtomicCounter()

    /// The largest value of ``maximum`` and ``queue``: each is a 32-bit field of one word.
    public static let largestCount = Int(LimitWord.fieldMask)

    /// A limit of `maximum` operations in flight and `queue` waiting.
    ///
    /// Any value is accepted and reported if out of range (an ``PetalDiagnostic/Kind/adjustedArgument``):
    /// a `maximum` below 1 is 1, a `queue` below 0 is 0 (refuse whenever the limit is full),
    /// and either above ``largestCount`` is that.
    public init(maximum: Int, queue: Int = 0) {
        self.queue = Self.boundedQueue(queue)
        adaptive = nil
        controller = nil
        operationTimer = nil
        timesOperations = false
        queueAtMaximum = 0
        word = .allocate(capacity: 1)
        word.initialize(to: petal_atomic_word(value: 0))
        maximumWord = .allocate(capacity: 1)
        maximumWord.initialize(to: petal_atomic_word(value: petal_word(Self.boundedMaximum(maximum))))
        arrivalsWord.initialize(to: petal_atomic_word(value: 0))
    }

    /// A limit whose maximum moves with the time its operations take, as `adaptive` says,
    /// with `queue` operations waiting at most.
    ///
    /// - Parameters:
    ///   - adaptive: The bounds of the maximum, where it starts, and how it moves. Values out of
    ///     range are reported (an ``PetalDiagnostic/Kind/adjustedArgument``) and adjusted as its
    ///     properties say.
    ///   - queue: Operations waiting at the initial maximum; the queue moves with the maximum
    ///     (half the maximum, half the queue), so that an operation waits about as long,
    ///     relative to its own time, whatever the maximum: a queue that stayed as long while the
    ///     maximum came down would add to each operation's wait what the lower maximum saved.
    ///   - clock: The clock that times the operations: `.manual` in tests, to decide what each
    ///     operation takes.
    public init(adaptive: AdaptiveLimit, queue: Int = 0, clock: DeadlineClock = .continuous) {
        adaptive.reportAdjustments()
        self.queue = Self.boundedQueue(queue)
        self.adaptive = adaptive
        let controller = LimitController(adaptive, clock: clock)
        self.controller = controller
        operationTimer = adaptive.timing == .operations ? controller : nil
        timesOperations = operationTimer != nil
        queueAtMaximum = adaptive.boundedInitial
        word = .allocate(capacity: 1)
        word.initialize(to: petal_atomic_word(value: 0))
        maximumWord = .allocate(capacity: 1)
        maximumWord.initialize(to: petal_atomic_word(value: petal_word(adaptive.boundedInitial)))
        arrivalsWord.initialize(to: petal_atomic_word(value: 0))
    }

    deinit {
        word.deinitialize(count: 1)
        word.deallocate()
        maximumWord.deinitialize(count: 1)
        maximumWord.deallocate()
        arrivalsWord.deinitialize(count: 1)
        arrivalsWord.deallocate()
    }

    private static func boundedMaximum(_ maximum: Int) -> Int {
        bounded(maximum, from: 1, as: "ConcurrencyLimit.maximum")
    }

    private static func boundedQueue(_ queue: Int) -> Int {
        bounded(queue, from: 0, as: "ConcurrencyLimit.queue")
    }

    /// `value` brought into `lowest...largestCount`, reported as `parameter` if it was not there.
    private static func bounded(_ value: Int, from lowest: Int, as parameter: StaticString) -> Int {
        let bounded = Swift.min(Swift.max(value, lowest), largestCount)
        if bounded != value {
            PetalDiagnostics.report(
                .named(.adjustedArgument, parameter), details: ["given": "\(value)", "used": "\(bounded)"])
        }
        return bounded
    }

    /// Operations in flight at most, now (it moves when set, or with the load when adaptive).
    ///
    /// Operations admitted under a higher maximum may be in flight above it for a while: a
    /// maximum that comes down refuses new operations, it does not stop running ones.
    public var maximum: Int { Int(petal_atomic_word_load(maximumWord)) }

    /// Sets the maximum: raised, waiting operations take the new slots at once (on this
    /// thread, in FIFO order); lowered, the operations in flight finish as they would, and new
    /// ones are admitted only once in flight is below the new maximum.
    ///
    /// A value below 1 is 1 and one above ``largestCount`` is that (reported, as
    /// ``init(maximum:queue:)`` does). An adaptive limit goes on moving from the value set,
    /// within its range.
    public func setMaximum(_ maximum: Int) {
        setBoundedMaximum(Self.boundedMaximum(maximum))
    }

    /// Operations waiting at most, now: ``queue``, or for an adaptive limit ``queue`` times the
    /// maximum over its initial maximum, rounded down.
    public var currentQueue: Int { queueBound(maximum: maximum) }

    func queueBound(maximum: Int) -> Int {
        // Both at most 2^32 - 1: the product fits.
        queueAtMaximum == 0 ? queue : queue * maximum / queueAtMaximum
    }

    /// Operations in flight now (other threads may be changing it).
    public var inFlight: Int { LimitWord.inFlight(petal_atomic_word_load(word)) }

    /// Operations waiting now (other threads may be changing it).
    public var waiting: Int { LimitWord.waiting(petal_atomic_word_load(word)) }

    /// Whether an operation run now would be refused: every slot taken and the queue full.
    ///
    /// A hint, read from one load of the limit's word (another thread may free a slot just
    /// after): for refusing work early and cheaply, before it is even decoded (a server's I/O
    /// layer, say), while ``run(on:_:)`` still decides for the work let through.
    public var isFull: Bool {
        let word = petal_atomic_word_load(word)
        let maximum = maximum
        return LimitWord.inFlight(word) >= maximum && LimitWord.waiting(word) >= queueBound(maximum: maximum)
    }

    /// Operations refused so far.
    public var refusedCount: Int { refused.value }

    /// Runs `body` now if a slot is free, later if the operation may wait, or not at all.
    ///
    /// - Returns: the future of the operation: resolved like the future `body` returns;
    ///   rejected with a ``ConcurrencyLimitExceededError`` at once when the limit and its queue
    ///   are full; rejected with what `body` throws; cancelled if a request reaches it before
    ///   `body` began (the operation never starts), and passed on to the future `body` returned
    ///   after (see ``Future/startFollowing(on:executing:)``, which follows the same rule).
    /// - A request's deadline: with a ``Deadline`` bound here (``Deadline/current``), an
    ///   operation asked for once it has passed is refused before `body` runs, rejected with the
    ///   deadline's ``Deadline/exceededError`` (not a ``ConcurrencyLimitExceededError``: the
    ///   limit did not refuse it, and ``refusedCount`` does not count it); an operation that
    ///   waits leaves the queue at the deadline, never starts, and is rejected with that error.
    ///   The limit keeps no time of its own for its queue, so the deadline is kept by its own
    ///   clock, whichever it is. An operation already running runs on: the request's own
    ///   timeout ends it. See <doc:Deadlines>.
    /// - Parameters:
    ///   - context: Where `body` runs. `.inline`: on this thread before this returns when a slot
    ///     is free, else on the thread that finishes the operation whose slot it takes.
    ///   - body: Starts the operation and returns its future. Keep it to starting the work: a
    ///     slot handed over runs it inside the previous operation's resolution.
    @inlinable
    public func run<Value, Context: ExecutionContext>(
        on context: Context = .inline, _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        // Inlinable, so that the path every admitted operation takes is specialised for the
        // caller's types: compiled once for all of them, its subscription and the deadline's
        // refusal looked their metadata up in the runtime's cache on every call (callgrind: 640
        // of a limited call's 1,800 instructions above a plain one).
        if Deadline.inUse, let refusal = Deadline.refusal() { return .refused(by: refusal) }
        guard Context.self == InlineExecutionContext.self && admit() else { return enqueue(on: context, body) }
        // No request can arrive before this returns: the operation's own future is the result.
        let operation: Future<Value>
        do {
            operation = try body()
        } catch {
            release()
            return .rejected(with: error)
        }
        if timesOperations {
            timeAdmitted(operation.storage)
        } else {
            // A step, handed the storage and its kind: no `Outcome` is built.
            operation.storage.subscribe(.step { [self] _, _ in release() })
        }
        return operation
    }

    /// ``run(on:_:)`` for an operation not admitted at once: one that waits, is refused, or
    /// runs on a context other than `.inline`.
    @usableFromInline
    func enqueue<Value, Context: ExecutionContext>(
        on context: Context, _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        let result = FutureStorage<Value>.makePending()
        result.addStartGate()
        // Unchecked: the storage is resolved only through its claim, from whichever thread.
        let target = UncheckedSendableBox(result)
        let waiter = LimitWaiter { [self] in
            if Context.self == InlineExecutionContext.self {
                begin(target.value, body)
            } else {
                context.execute(
                    { self.begin(target.value, body) },
                    ifDropped: {
                        _ = target.value.fail(.cancelled, error: DroppedWorkError(droppedBy: Context.self))
                        self.release()
                    })
            }
        }
        if Deadline.inUse { expire(waiter, failing: result) }
        switch enter(waiter) {
        case .admitted:
            waiter.start()
        case .queued:
            // After the gate's own answer (which cancels the future), a request takes the
            // operation out of the queue.
            result.addCancellationAction { [self] in _ = leave(waiter) }
        case .refused(let maximum, let queue):
            waiter.disarm()  // never queued: its timer, never set, must not keep it alive
            refused.increment()
            _ = result.fail(.rejected, error: ConcurrencyLimitExceededError(maximum: maximum, queue: queue))
        }
        return Future(storage: result)
    }

    /// Times an operation admitted at once, for the adaptive limit that times operations. A
    /// function of its own, never inlined: the instant it keeps has a size learnt at run time,
    /// which a caller holding one looks up on entry whether or not it takes this path.
    @usableFromInline
    @inline(never)
    func timeAdmitted<Value>(_ operation: FutureStorage<Value>) {
        let start = operationTimer.unsafelyUnwrapped.clock.now
        operation.subscribe(.step { [self] _, kind in finish(since: start, cancelled: kind == .cancelled) })
    }

    // MARK: The word's moves

    private func exchange(_ seen: inout petal_word, _ next: petal_word) -> Bool {
        // FULL (see petal_atomics.h): an admission is ordered after the release that freed its
        // slot, and a waiter's count after the queue it saw full.
        petal_atomic_word_exchange(word, &seen, next) != 0
    }

    /// A slot taken without the lock, if one is free and nothing waits.
    @usableFromInline
    func admit() -> Bool {
        // The maximum read once, before the word: one that comes down meanwhile may still see
        // this admission under the old one (see LimitWord).
        let maximum = maximum
        var seen = petal_atomic_word_load(word)
        while let next = LimitWord.admitting(seen, maximum: maximum) {
            if exchange(&seen, next) { return true }
        }
        return false
    }

    private enum Entry {
        case admitted, queued
        /// Refused under this maximum and queue.
        case refused(Int, Int)
    }

    /// A slot, else a place in the queue (`waiter` is queued), else neither: decided under the
    /// lock, so that the queue and the count of waiters change together.
    private func enter(_ waiter: LimitWaiter) -> Entry {
        // Reported after the lock: a diagnostics handler is the user's code.
        var unkept = false
        defer { if unkept { LimitExpiry.reportUnkept() } }
        return waiters.withLock { queue in
            // The maximum changes only under this lock: it holds for the whole decision.
            let maximum = maximum
            let queueBound = queueBound(maximum: maximum)
            var seen = petal_atomic_word_load(word)
            while true {
                if let next = LimitWord.admitting(seen, maximum: maximum) {
                    if exchange(&seen, next) { return .admitted }
                } else if let next = LimitWord.queueing(seen, maximum: maximum, queue: queueBound) {
                    if exchange(&seen, next) {
                        queue.append(waiter)
                        // Under the lock, so that whoever takes the waiter out finds its timer set.
                        if let expiry = waiter.expiry, !expiry.schedule() { unkept = true }
                        return .queued
                    }
                } else {
                    return .refused(maximum, queueBound)
                }
            }
        }
    }

    /// An operation timed by an adaptive limit finished: its slot is given back, and its time
    /// counted, which may move the maximum.
    private func finish(since start: ContinuousClock.Instant, cancelled: Bool) {
        let reached = release()
        let controller = operationTimer.unsafelyUnwrapped
        if let next = controller.record(since: start, reached: reached, cancelled: cancelled, maximum: maximum) {
            setBoundedMaximum(next)
        }
    }

    /// An operation finished: its slot is given back, or handed to the oldest waiter, which
    /// then starts.
    ///
    /// - Returns: whether the limit was reached (every slot taken, or something waiting).
    @usableFromInline
    @discardableResult
    func release() -> Bool {
        var seen = petal_atomic_word_load(word)
        while let next = LimitWord.releasing(seen) {
            if exchange(&seen, next) { return LimitWord.inFlight(seen) >= maximum }
        }
        let next = waiters.withLock { queue -> LimitWaiter? in
            let maximum = maximum
            var seen = petal_atomic_word_load(word)
            while true {
                if let next = LimitWord.shedding(seen, maximum: maximum) {
                    if exchange(&seen, next) { return nil }  // the maximum came down
                } else if let next = LimitWord.handingOver(seen) {
                    if exchange(&seen, next) { return queue.removeFirst() }
                } else if let next = LimitWord.releasing(seen) {
                    if exchange(&seen, next) { return nil }  // the last waiter left meanwhile
                } else {
                    preconditionFailure("Petal: a ConcurrencyLimit released more operations than it admitted")
                }
            }
        }
        next?.start()
        return true
    }

    /// Sets a maximum already in range, and gives the waiters the slots a higher one frees.
    func setBoundedMaximum(_ maximum: Int) {
        let granted = waiters.withLock { queue -> [LimitWaiter] in
            var seenMaximum = petal_atomic_word_load(maximumWord)
            // FULL, as every move: the admissions that read the new maximum are ordered after it.
            while petal_atomic_word_exchange(maximumWord, &seenMaximum, petal_word(maximum)) == 0 {}
            var granted: [LimitWaiter] = []
            var seen = petal_atomic_word_load(word)
            while let next = LimitWord.granting(seen, maximum: maximum) {
                if exchange(&seen, next) { granted.append(queue.removeFirst()) }
            }
            return granted
        }
        // Outside the lock, as a hand-over: each starts its operation, which may take the lock.
        for waiter in granted { waiter.start() }
    }

    /// A request, or the request's deadline, reached a waiting operation: it leaves the queue,
    /// if it is still there.
    ///
    /// - Returns: whether this call took it out.
    func leave(_ waiter: LimitWaiter) -> Bool {
        let left = waiters.withLock { queue -> Bool in
            guard queue.remove(waiter) else { return false }
            var seen = petal_atomic_word_load(word)
            while let next = LimitWord.leaving(seen) {
                if exchange(&seen, next) { return true }
            }
            preconditionFailure("Petal: a ConcurrencyLimit's waiter was queued without being counted")
        }
        // Outside the lock, by the one thread that took the waiter out.
        if left { waiter.disarm() }
        return left
    }

    // MARK: Running an admitted operation

    /// Runs an admitted operation's `body`, unless a request closed its gate first; its slot is
    /// given back when the future it returns resolves (at once if it never began).
    private func begin<Value>(_ result: FutureStorage<Value>, _ body: () throws -> Future<Value>) {
        let record = result.installedRecord.unsafelyUnwrapped
        guard record._withUnsafeGuaranteedRef({ $0.openStartGate() }) else {
            release()
            return
        }
        let operation: Future<Value>
        do {
            operation = try body()
        } catch {
            _ = result.fail(.rejected, error: error)
            release()
            return
        }
        let passing = operation.storage.propagatesRequests
        // Linked before the gate says PASSING, as `followStarted` does.
        if passing { operation.storage.linkDependent(result) }
        if record._withUnsafeGuaranteedRef({ $0.followStartGate(passing: passing) }) {
            _ = result.fail(.cancelled, error: nil)
        }
        let source = UncheckedSendableBox(operation.storage)
        let target = UncheckedSendableBox(result)
        let start = operationTimer?.clock.now
        operation.storage.subscribe(
            .resolved { [self] outcome in
                _ = target.value.resolve(copying: source.value, kind: outcome.kind)
                if let start { finish(since: start, cancelled: outcome.kind == .cancelled) } else { release() }
            })
    }
}
