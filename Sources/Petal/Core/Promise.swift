import CPetal

/// The write side of a future: resolve it once, from any thread.
///
/// Keep the promise private to the work that produces the value and hand out its ``future``.
/// The first of ``fulfil(with:)``, ``reject(with:)``, ``cancel(withIndirectError:)`` or
/// ``resolve(with:)`` wins; later calls change nothing, return `false` and are counted and
/// reported through ``PetalDiagnostics/handler`` as a ``PetalDiagnostic/Kind/repeatedResolution``, unless the promise
/// was created with ``RepeatedResolutionPolicy/ignore`` because its resolvers race on purpose.
///
/// A promise dropped while unresolved cancels its future with an ``AbandonedPromiseError`` as the
/// indirect error, so nothing waits forever on work that can no longer finish; this holds even
/// while consumers hold or wait on the future, because they hold the future, not the promise.
/// The drop is reported through ``PetalDiagnostics/handler`` as an ``PetalDiagnostic/Kind/abandonedPromise``.
///
/// A failure of the future (a rejection, or a cancellation with an indirect error) that nobody
/// observes is reported as an ``PetalDiagnostic/Kind/unobservedFailure`` naming this promise's creation site, when the
/// future is freed.
///
/// Resolving runs the future's inline callbacks on the calling thread, in subscription order,
/// before the resolving method returns (deeply nested ones run before the outermost callback
/// returns; see ``InlineExecutionContext``).
public final class Promise<Value> {
    /// The future this promise resolves.
    public let future: Future<Value>

    /// Where the promise was created, to name it in diagnostics, and what to do with repeats.
    @usableFromInline
    let site: PromiseSite

    /// Creates a promise with a pending future.
    ///
    /// ```swift
    /// let promise = Promise<Int>()                                   // repeats are reported
    /// let fastest = Promise<Reply>(onRepeatedResolution: .ignore)    // replicas race on purpose
    /// ```
    ///
    /// - Parameters:
    ///   - policy: Whether later resolutions, which never change the outcome, are counted and
    ///     reported (``RepeatedResolutionPolicy/report``, the default) or silently ignored
    ///     (``RepeatedResolutionPolicy/ignore``).
    ///   - fileID: The creation site's file, shown in diagnostics; leave the default.
    ///   - line: The creation site's line, shown in diagnostics; leave the default.
    @inlinable
    public init(
        onRepeatedResolution policy: RepeatedResolutionPolicy = .report,
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        future = Future(storage: .makePending())
        site = PromiseSite(fileID: fileID, line: line, policy: policy)
    }

    @inlinable
    init(storage: FutureStorage<Value>, site: PromiseSite) {
        future = Future(storage: storage)
        self.site = site
    }

    /// A promise whose future is already resolved with `outcome`, as ``Future/init(resolvedWith:)``
    /// makes a future.
    ///
    /// ```swift
    /// let cached = Promise(resolvedWith: .fulfilled(reply))
    /// ```
    ///
    /// Every resolution of it is a repeat, handled as `policy` says (see
    /// ``init(onRepeatedResolution:fileID:line:)``).
    @inlinable
    public convenience init(
        resolvedWith outcome: Outcome<Value>, onRepeatedResolution policy: RepeatedResolutionPolicy = .report,
        fileID: StaticString = #fileID, line: UInt = #line
    ) {
        self.init(storage: .makeResolved(outcome), site: PromiseSite(fileID: fileID, line: line, policy: policy))
        if outcome.error != nil { future.storage.recordFailureSite(site.failureSite(of: Value.self)) }
    }

    deinit {
        // The last producer is gone: nobody can resolve the future any more, so cancel it rather
        // than leave its waiters hanging. No other thread can be resolving through this promise
        // now (it would hold a reference), so a lost claim here only means it was resolved.
        if !withStorage({ $0.isClaimed }) { abandon() }
    }

    /// Runs `body` with the storage, borrowed from the immutable `future`: the compiler adds no
    /// retain or release (callgrind counts the same atomics with and without this). It once
    /// went through `Unmanaged._withUnsafeGuaranteedRef`, which is no longer needed for that and
    /// kept the closure out of line (27 instructions per resolution).
    @inlinable
    func withStorage<Result>(_ body: (FutureStorage<Value>) -> Result) -> Result {
        body(future.storage)
    }

    /// Cancels the future of a promise dropped unresolved, and reports it (the rare path, kept
    /// out of deinit).
    @inline(never)
    private func abandon() {
        site.abandon(future.storage)
    }

    /// Whether the future is resolved (a resolution still being written counts as pending).
    @inlinable
    public var isResolved: Bool { withStorage { $0.isResolved } }

    /// Fulfils the future with `value`.
    ///
    /// Inline callbacks run on this thread before this returns.
    /// - Returns: `true` if this call resolved the future; `false` if it was already resolved
    ///   (nothing changes, and the repeat is reported unless the promise ignores repeats).
    @inlinable
    @discardableResult
    public func fulfil(with value: Value) -> Bool {
        if withStorage({ $0.fulfil(with: value) }) { return true }
        reportRepeat(.fulfilled)
        return false
    }

    /// Rejects the future with `error`: the work itself failed.
    ///
    /// Inline callbacks run on this thread before this returns.
    /// - Returns: `true` if this call resolved the future; `false` if it was already resolved
    ///   (nothing changes, and the repeat is reported unless the promise ignores repeats).
    @inlinable
    @discardableResult
    public func reject(with error: any Error) -> Bool {
        if withStorage({ $0.fail(.rejected, error: error, failureSite: site.failureSite(of: Value.self)) }) {
            return true
        }
        reportRepeat(.rejected)
        return false
    }

    /// Cancels the future, optionally naming the error elsewhere that caused the cancellation.
    ///
    /// Inline callbacks run on this thread before this returns.
    /// - Returns: `true` if this call resolved the future; `false` if it was already resolved
    ///   (nothing changes, and the repeat is reported unless the promise ignores repeats).
    @inlinable
    @discardableResult
    public func cancel(withIndirectError indirectError: (any Error)? = nil) -> Bool {
        let failureSite = indirectError == nil ? 0 : site.failureSite(of: Value.self)
        if withStorage({ $0.fail(.cancelled, error: indirectError, failureSite: failureSite) }) { return true }
        reportRepeat(.cancelled)
        return false
    }

    /// Resolves the future with `outcome`.
    ///
    /// Inline callbacks run on this thread before this returns.
    /// - Returns: `true` if this call resolved the future; `false` if it was already resolved
    ///   (nothing changes, and the repeat is reported unless the promise ignores repeats).
    @inlinable
    @discardableResult
    public func resolve(with outcome: Outcome<Value>) -> Bool {
        if case .fulfilled(let value) = outcome {
            if withStorage({ $0.fulfil(with: value) }) { return true }
        } else {
            let failureSite = outcome.error == nil ? 0 : site.failureSite(of: Value.self)
            if withStorage({ $0.fail(outcome.kind, error: outcome.error, failureSite: failureSite) }) { return true }
        }
        reportRepeat(outcome.kind)
        return false
    }

    /// The losing path, the only one that reads the policy: a winning resolution never pays for
    /// diagnostics.
    ///
    /// Inlined, so that whether the future has a cancellation record (the precondition of any
    /// request) is one load in the caller's specialised code: asked in the generic function
    /// below, it would look up the storage's metadata, about 360 instructions a loss (measured
    /// with `Scripts/profile`'s fulfil race).
    @inlinable
    func reportRepeat(_ attempt: OutcomeKind) {
        let mayBeRequested = withStorage { petal_atomic_word_load($0.cancellationSlot) != 0 }
        reportRepeat(attempt, mayBeRequested: mayBeRequested)
    }

    /// The report of a loss, unless the promise ignores repeats or the loss raced a request.
    @usableFromInline
    @inline(never)
    func reportRepeat(_ attempt: OutcomeKind, mayBeRequested: Bool) {
        guard site.policy == .report, !(mayBeRequested && lostToRequestedCancellation) else { return }
        // Under the default diagnostics, at a site this thread has reported at before, a repeat
        // is a count and nothing more (`petal_repeat_cache.h`): a loser then costs little more
        // than its failed compare-and-swap.
        if let file = site.repeatCacheFile, petal_repeat_count_cached(file, UInt(site.line)) != 0 { return }
        reportRepeatInFull(attempt)
    }

    /// Whether the future was cancelled after a consumer's request reached it: a resolution
    /// that loses to that cancellation is an answer that was on its way when the consumer gave
    /// up (the race every cancellable call has), not a producer resolving twice.
    ///
    /// A winner still publishing its outcome (another thread claimed the future a moment ago)
    /// counts as that cancellation when a request has reached the future: it almost always is
    /// (the request's cancel racing the answer is exactly how the two meet), and waiting here
    /// to be sure would make a losing resolution wait for another thread.
    @usableFromInline
    var lostToRequestedCancellation: Bool {
        withStorage { storage in
            guard storage.isCancellationRequested else { return false }
            guard let winner = storage.peek() else { return true }
            return winner.kind == .cancelled
        }
    }

    /// A repeat the cache does not count: the report. A function of its own so that the
    /// stack protector its locals need is paid here, not by every counted loser.
    @usableFromInline
    @inline(never)
    func reportRepeatInFull(_ attempt: OutcomeKind) {
        site.report(.repeatedResolution(attempt: attempt), valueType: Value.self)
    }
}

/// Sendable: `future` and `site` are immutable, and the storage they share is synchronised by
/// the cell protocol (see ``Future``).
extension Promise: @unchecked Sendable where Value: Sendable {}

/// Where a promise was created, and what its repeats do: read only by diagnostics.
///
/// `policy` is declared right after `fileID` so that it sits in the padding after the
/// 17-byte `StaticString`: the site stays 32 bytes and the promise handle does not grow.
@usableFromInline
struct PromiseSite: Sendable {
    @usableFromInline
    let fileID: StaticString
    @usableFromInline
    let policy: RepeatedResolutionPolicy
    @usableFromInline
    let line: UInt

    @inlinable
    init(fileID: StaticString, line: UInt, policy: RepeatedResolutionPolicy = .report) {
        self.fileID = fileID
        self.policy = policy
        self.line = line
    }

    /// The site's file, as the repeat cache keys it: the `#fileID` text's address, or `nil` for a
    /// literal of one character, which has none (such sites always report in full).
    var repeatCacheFile: UnsafeRawPointer? {
        fileID.hasPointerRepresentation ? UnsafeRawPointer(fileID.utf8Start) : nil
    }

    /// The number of this site, which a failure of the promise's future records so that it can
    /// be reported with the site if nobody observes it (0 if none can be given). Called on
    /// failure paths only.
    @usableFromInline
    func failureSite<Value>(of _: Value.Type) -> UInt32 {
        withUnsafePointer(to: PromiseReport(site: self, valueType: Value.self, event: .failure)) {
            petal_swift_failure_site($0)
        }
    }

    /// Cancels `storage`, the future of a promise created here and dropped unresolved, with an
    /// ``AbandonedPromiseError``, and reports the abandonment. A lost claim means that the future
    /// was resolved after all, and then nothing was abandoned.
    func abandon<Value>(_ storage: FutureStorage<Value>) {
        let error = AbandonedPromiseError(valueType: Value.self, fileID: fileID, line: line)
        guard storage.fail(.cancelled, error: error) else { return }
        report(.abandoned, valueType: Value.self)
    }

    /// Hands `event` to Core's hook for promise reports (`petal_swift_hooks.h`).
    @usableFromInline
    func report(_ event: PromiseReport.Event, valueType: Any.Type) {
        withUnsafePointer(to: PromiseReport(site: self, valueType: valueType, event: event)) {
            petal_swift_promise_report($0)
        }
    }
}

/// What a promise reports, handed to Core's hooks (`petal_swift_hooks.h`): Diagnostics decides
/// how it is counted and told.
@usableFromInline
struct PromiseReport {
    /// What happened.
    @usableFromInline
    enum Event {
        /// A resolution after the first, with what it tried.
        case repeatedResolution(attempt: OutcomeKind)
        /// The promise was dropped with its future pending.
        case abandoned
        /// The future is failing: the site's number is asked for.
        case failure
    }

    /// Where the promise was created.
    let site: PromiseSite
    /// The promise's value type.
    let valueType: Any.Type
    /// What happened.
    let event: Event

    @usableFromInline
    init(site: PromiseSite, valueType: Any.Type, event: Event) {
        self.site = site
        self.valueType = valueType
        self.event = event
    }
}
