import CPetal

/// The promises of a fan-out in one object: N slots, each resolved once, and one future of all
/// their values.
///
/// A request that calls N backends through completion handlers can make N ``Promise``s and
/// combine their futures with ``Future/fulfillingWhen(_:cancellingUpstream:)-([Future<Element>],_)``: 2N objects and N
/// subscriptions. A batch gives the same answers for a handful of objects, whatever N: a slot is
/// a claim word and a value in one shared allocation, and fulfilling it is a compare-and-swap,
/// the value written and a count down (about 15 ns a call against a promise's 300-600 in the
/// fan-out benchmark; see <doc:PetalInAsyncCode>).
///
/// ```swift
/// let batch = PromiseBatch<Reply>(count: backends.count)
/// for (index, backend) in backends.enumerated() {
///     let slot = batch[index]
///     let call = backend.send(query) { reply in slot.fulfil(with: reply) }
///     slot.cancelWhenRequested { call.cancel() }
/// }
/// return batch.all.timeout(after: .milliseconds(20))
/// ```
///
/// It answers as `fulfillingWhen` over promises does:
/// - ``all`` is fulfilled with every slot's value, in slot order, once every slot is fulfilled;
///   with no slots, at once with an empty array.
/// - A slot rejected or cancelled cancels ``all`` with the rejection's error (or the
///   cancellation's indirect error) as its indirect error; the first failure decides, and `all`
///   is never rejected. Then each slot still pending that registered a stop with
///   ``cancelWhenRequested(_:stopping:)`` is stopped, as `fulfillingWhen` votes on its inputs.
/// - A consumer's request on ``all`` (a timeout, a task cancelled while awaiting it) cancels it
///   and stops those slots the same way.
/// - Each slot is resolved once: a later resolution changes nothing, returns `false`, and is
///   reported as a ``PetalDiagnostic/Kind/repeatedResolution`` naming the batch's creation site,
///   unless the batch ignores repeats or the slot was stopped (an answer on its way when
///   `all` was given up on is no producer's mistake).
/// - A batch dropped (with every slot handle) while ``all`` is pending cancels it with an
///   ``AbandonedPromiseError`` naming the batch's creation site, reported as a
///   ``PetalDiagnostic/Kind/abandonedPromise``: a slot handle keeps its batch alive, so a batch
///   is dropped only when no producer can resolve it any more.
///
/// All of it from any thread: slots race each other, the request and the stops' registration
/// safely (`Tests/Model/petal_batch.pml` checks the protocol).
public final class PromiseBatch<Value> {
    /// Fulfilled with every slot's value, in slot order, when the last slot is fulfilled;
    /// cancelled by the first slot that fails, by a consumer's request, or when the batch is
    /// dropped with slots pending.
    public var all: Future<[Value]> { Future(storage: result) }

    /// The number of slots.
    public var count: Int { storage.count }

    /// The future of ``all``, which the batch resolves as a promise would: the batch is the
    /// producers' side, so dropping it cancels ``all`` if it is still pending, naming the
    /// batch's site, as a dropped promise does. Not a ``Promise``: that was one object more a
    /// batch, holding no more than these two.
    @usableFromInline
    let result: FutureStorage<[Value]>

    /// Where the batch was made, and what it does with a slot's repeated resolution.
    @usableFromInline
    let site: PromiseSite

    /// The slots, shared with the answer to a request on ``all`` (which must not hold the
    /// batch: that would keep the promise alive through its own future).
    @usableFromInline
    let storage: PromiseBatchStorage<Value>

    /// Makes a batch of `count` pending slots.
    ///
    /// ```swift
    /// let batch = PromiseBatch<Int>(count: 32)
    /// let racing = PromiseBatch<Reply>(count: 3, onRepeatedResolution: .ignore)
    /// ```
    ///
    /// - Parameters:
    ///   - count: The number of slots, from zero to ``largestCount``; a count outside that is
    ///     moved into it and reported (an ``PetalDiagnostic/Kind/adjustedArgument``).
    ///   - policy: Whether a slot's later resolutions are reported (the default) or ignored,
    ///     as a ``Promise``'s.
    ///   - fileID: The creation site's file, shown in diagnostics; leave the default.
    ///   - line: The creation site's line, shown in diagnostics; leave the default.
    @inlinable
    public convenience init(
        count: Int, onRepeatedResolution policy: RepeatedResolutionPolicy = .report,
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        // Inlined, so that the three generic objects are made by the caller's specialised code,
        // whose metadata is cached where it is used: made here, unspecialised, each looked its
        // type up at run time (callgrind: about 1,000 instructions a batch, 32 a call of the
        // example service's fan-out at N = 32).
        self.init(
            storage: PromiseBatchStorage<Value>(count: Self.boundedCount(count)), result: .makePending(),
            site: PromiseSite(fileID: fileID, line: line, policy: policy))
    }

    /// The batch of `storage`'s slots, fulfilling `result` once every slot is fulfilled.
    @usableFromInline
    init(storage: PromiseBatchStorage<Value>, result: FutureStorage<[Value]>, site: PromiseSite) {
        self.storage = storage
        self.result = result
        self.site = site
        if storage.count == 0 {
            _ = result.fulfil(with: [])
        } else {
            // Captures the slots, not the batch: a stop that held the batch would keep it alive
            // through its own future, and a dropped batch would never abandon it.
            result.addProducerStop { storage.stopPending() }
        }
    }

    deinit {
        // The producers' side is gone: nobody can resolve `all` any more, so it is cancelled
        // rather than left pending, as a promise dropped unresolved cancels its future.
        if !result.isClaimed { site.abandon(result) }
    }

    /// The most slots a batch has: 16,777,216 (a larger count is reported and lowered to it).
    public static var largestCount: Int { 1 << 24 }

    /// `count`, moved into `0...largestCount` and reported if it was outside.
    @usableFromInline
    static func boundedCount(_ count: Int) -> Int {
        let bounded = Swift.min(Swift.max(count, 0), largestCount)
        if bounded != count { reportAdjusted("PromiseBatch.count", given: "\(count)", used: "\(bounded)") }
        return bounded
    }

    /// The handle of slot `index`, to hand to the completion handler that resolves it; it keeps
    /// the batch alive. A handle of an index outside the batch resolves nothing: each of its
    /// calls is refused and reported, as the batch's own calls with that index are.
    @inlinable
    public subscript(index: Int) -> Slot {
        Slot(batch: self, index: index)
    }

    /// Fulfils slot `index` with `value`; the last slot to be fulfilled fulfils ``all``, on this
    /// thread, before this returns.
    /// - Returns: `true` if this call resolved the slot; `false` if it was already resolved
    ///   (reported as ``Promise/fulfil(with:)``'s repeats are, unless the slot was stopped), or
    ///   if the batch has no slot `index` (reported as an ``PetalDiagnostic/Kind/adjustedArgument``).
    @inlinable
    @discardableResult
    public func fulfil(_ index: Int, with value: Value) -> Bool {
        guard holds(index) else { return false }
        // `all`'s storage, borrowed from the batch: no retain and release of it per call.
        let seen = storage.fulfil(index, with: value, resolving: result)
        if seen == PromiseBatchStorage<Value>.pending { return true }
        reportRepeat(.fulfilled, seen: seen)
        return false
    }

    /// Rejects slot `index` with `error`: ``all`` is cancelled with `error` as its indirect
    /// error, unless it was decided already, and the slots still pending are stopped.
    /// - Returns: `true` if this call resolved the slot; `false` if it was already resolved, or
    ///   if the batch has no slot `index` (both reported).
    @discardableResult
    public func reject(_ index: Int, with error: any Error) -> Bool {
        fail(index, .rejected, error: error)
    }

    /// Cancels slot `index`, optionally naming the error elsewhere that caused it: ``all`` is
    /// cancelled with that indirect error, unless it was decided already, and the slots still
    /// pending are stopped.
    /// - Returns: `true` if this call resolved the slot; `false` if it was already resolved, or
    ///   if the batch has no slot `index` (both reported).
    @discardableResult
    public func cancel(_ index: Int, withIndirectError indirectError: (any Error)? = nil) -> Bool {
        fail(index, .cancelled, error: indirectError)
    }

    /// Resolves slot `index` with `outcome`, as ``fulfil(_:with:)``, ``reject(_:with:)`` or
    /// ``cancel(_:withIndirectError:)`` would.
    /// - Returns: `true` if this call resolved the slot; `false` if it was already resolved.
    @inlinable
    @discardableResult
    public func resolve(_ index: Int, with outcome: Outcome<Value>) -> Bool {
        switch outcome {
        case .fulfilled(let value): fulfil(index, with: value)
        case .rejected(let error): reject(index, with: error)
        case .cancelled(let indirectError): cancel(index, withIndirectError: indirectError)
        }
    }

    /// Runs `stop` once, on the thread that gives up, if ``all`` is given up on (a consumer's
    /// request, or another slot's failure) while slot `index` is still pending; at once, on this
    /// thread, if it already was. The slot is then stopped: its producer's later resolution
    /// returns `false` and is not reported.
    ///
    /// `stop` is held until then, until the slot is resolved, or until the batch is freed. A slot
    /// holds one stop: a second one for a slot that holds its stop never runs (the call is
    /// reported, an ``PetalDiagnostic/Kind/adjustedArgument``), and one for a slot already
    /// resolved is dropped at once. For an index outside the batch, `stop` never runs (the call
    /// is reported). No lock is taken: a registration is two compare-and-swaps on the slot's word.
    @inlinable
    public func cancelWhenRequested(_ index: Int, stopping stop: consuming @escaping @Sendable () -> Void) {
        guard holds(index) else { return }
        if let seen = storage.addStop(index, consume stop), PromiseBatchStorage<Value>.isOpen(seen) {
            refuseSecondStop(index)
        }
    }

    /// Reports a second stop for slot `index`, which is dropped: a slot holds one.
    @usableFromInline
    @inline(never)
    func refuseSecondStop(_ index: Int) {
        Self.reportAdjusted(
            "PromiseBatch.cancelWhenRequested(_:stopping:)", given: "a second stop for slot \(index)",
            used: "the first: a slot holds one stop")
    }

    /// Runs `stop` once, on the thread that gives up, if ``all`` is given up on (a consumer's
    /// request, or a slot's failure) before every slot is fulfilled; at once, on this thread, if
    /// it already was. One stop for the whole batch, for producers that are stopped together:
    ///
    /// ```swift
    /// let batch = PromiseBatch<Reply>(count: backends.count)
    /// let calls = backends.indices.map { index in
    ///     let slot = batch[index]
    ///     return backends[index].send(query) { reply in slot.fulfil(with: reply) }
    /// }
    /// batch.cancelWhenRequested { for call in calls { call.cancel() } }
    /// ```
    ///
    /// Where each slot's ``cancelWhenRequested(_:stopping:)`` makes a registration a slot (two
    /// compare-and-swaps, and the stops' cells with the first), this is one a batch, and makes
    /// no cells: in the example service's fan-out of 32 calls, 902 instructions, 10.6 atomics
    /// and 1.47 allocations a call against 1,001, 12.5 and 1.50 (callgrind). It stops every
    /// producer, answered or not, so stopping one that has answered must do nothing (as
    /// cancelling a finished request does in most clients); and it stops no slot: an answer
    /// that arrives afterwards still resolves its slot, into nothing, unreported.
    ///
    /// `stop` is held until it runs or the batch is freed. A batch holds one: a second never
    /// runs, and the call is reported (an ``PetalDiagnostic/Kind/adjustedArgument``). It may
    /// be registered beside slots' own stops; when `all` is given up on, those run first.
    @inlinable
    public func cancelWhenRequested(stopping stop: consuming @escaping @Sendable () -> Void) {
        if !storage.addBatchStop(consume stop) { refuseSecondBatchStop() }
    }

    /// Reports a second stop for the batch, which is dropped: a batch holds one.
    @usableFromInline
    @inline(never)
    func refuseSecondBatchStop() {
        Self.reportAdjusted(
            "PromiseBatch.cancelWhenRequested(stopping:)", given: "a second stop for the batch",
            used: "the first: a batch holds one stop")
    }

    /// Whether slot `index` was resolved (or stopped); `false` for an index outside the batch.
    public func isResolved(_ index: Int) -> Bool {
        guard contains(index) else { return false }
        return storage.state(index) != PromiseBatchStorage<Value>.pending
    }

    /// Whether the batch has slot `index`: one comparison, a negative index being a very large
    /// unsigned one.
    @inlinable
    func contains(_ index: Int) -> Bool {
        UInt(bitPattern: index) < UInt(bitPattern: storage.count)
    }

    /// Whether the batch has slot `index`; if not, the call is reported.
    @inlinable
    func holds(_ index: Int) -> Bool {
        if contains(index) { return true }
        refuse(index)
        return false
    }

    /// The report of a call with an index outside the batch, which resolves nothing.
    @usableFromInline
    @inline(never)
    func refuse(_ index: Int) {
        Self.reportAdjusted("PromiseBatch index", given: "\(index)", used: "none: the batch has \(storage.count) slots")
    }

    /// A batch's reports of a value it could not honour as given (an
    /// ``PetalDiagnostic/Kind/adjustedArgument``): the count, an index, a second stop.
    static func reportAdjusted(_ parameter: StaticString, given: String, used: String) {
        PetalDiagnostics.report(.named(.adjustedArgument, parameter), details: ["given": given, "used": used])
    }

    /// A rejection or cancellation of slot `index`, with its report if it came too late.
    private func fail(_ index: Int, _ kind: OutcomeKind, error: (any Error)?) -> Bool {
        guard holds(index) else { return false }
        let failureSite = error == nil ? 0 : site.failureSite(of: [Value].self)
        let seen = storage.fail(index, error: error, resolving: result, failureSite: failureSite)
        if seen == PromiseBatchStorage<Value>.pending { return true }
        reportRepeat(kind, seen: seen)
        return false
    }

    /// The report of a slot's repeat, unless the batch ignores repeats or the slot was stopped.
    @usableFromInline
    @inline(never)
    func reportRepeat(_ attempt: OutcomeKind, seen: petal_word) {
        guard site.policy == .report, seen != PromiseBatchStorage<Value>.stopped else { return }
        if let file = site.repeatCacheFile, petal_repeat_count_cached(file, UInt(site.line)) != 0 { return }
        site.report(.repeatedResolution(attempt: attempt), valueType: Value.self)
    }
}

/// Sendable: `result` and `storage` are immutable, and the storage's slots are synchronised by
/// their words and mutex (see ``PromiseBatchStorage``).
extension PromiseBatch: @unchecked Sendable where Value: Sendable {}
