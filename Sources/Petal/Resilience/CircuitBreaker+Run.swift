/// Calling through a breaker: ``CircuitBreaker/run(on:_:)``, the count of each call's outcome,
/// and the trial calls that probe a backend while the breaker is half-open.
extension CircuitBreaker {
    /// Runs `body` if the breaker lets the call through, and counts its outcome; refuses it
    /// otherwise, without running `body`.
    ///
    /// - Where and when: with `.inline`, the breaker decides and `body` runs on this thread
    ///   before this returns; with another context, both happen there, when it runs the call
    ///   (as ``Future/startFollowing(on:executing:)`` does: a call cancelled or dropped before
    ///   it starts never reaches the breaker).
    /// - Returns: the future of the call, resolved as the future `body` returns; rejected with
    ///   what `body` throws (counted as a rejection of the call); rejected with a
    ///   ``CircuitBreakerOpenError`` at once, `body` never run, while the breaker is open or
    ///   its trial calls are all taken.
    /// - A request's deadline: with a ``Deadline`` bound here that has passed, the call is
    ///   refused with its ``Deadline/exceededError`` before the breaker is asked, and counts as
    ///   nothing; so does a call whose future comes back already rejected with that error (a
    ///   retry, hedge or limit inside `body` refused it).
    /// - Parameters:
    ///   - context: Where the breaker decides and `body` runs.
    ///   - body: Starts the call and returns its future.
    ///
    /// Inlinable, and generic only where it must be (the rest is the breaker's own code): an
    /// unspecialised generic call across the module boundary spent more than half of a
    /// closed call's cost looking up metadata (perf, release build).
    @inlinable
    public func run<Value, Context: ExecutionContext>(
        on context: Context = .inline, _ body: @escaping @Sendable () throws -> Future<Value>
    ) -> Future<Value> {
        guard Context.self == InlineExecutionContext.self else {
            return Future.startFollowing(on: context) { self.run(body) }
        }
        if Deadline.inUse, let refusal = Deadline.refusal() { return .refused(by: refusal) }
        let ticket = admit()
        if ticket >= Self.refused { return .rejected(with: refusal(for: ticket)) }
        let start = nanosecondsNow
        let operation: Future<Value>
        do {
            operation = try body()
        } catch {
            finish(ticket, kind: .rejected, error: error, since: start)
            return .rejected(with: error)
        }
        // Only a future rejected before `body` returned can be the deadline's refusal; later,
        // the same error is the request's own timeout ending a call the backend did not answer.
        // Counted here, so that the closure below captures no error to copy.
        if Deadline.inUse && operation.isResolved, let refusal = Deadline.refusal() {
            let outcome = operation.storage.snapshot()
            finish(ticket, kind: outcome?.kind ?? .rejected, error: outcome?.error, since: start, refusal: refusal)
            return operation
        }
        if ticket & 1 != 0 { return probe(operation, ticket: ticket, since: start) }
        count(operation, ticket: ticket, since: start)
        return operation
    }

    /// Counts `operation`'s outcome when it resolves. A step receives the storage and the kind,
    /// and reads the error without observing it: the caller's future is the operation itself,
    /// and its failure is the caller's to see.
    ///
    /// Inlinable, so that the caller specialises the subscription for its `Value`: unspecialised,
    /// it looked the closure's and the storage's metadata up at run time on every call
    /// (callgrind, a closed breaker's call answered at once: 6,470 -> 4,507 instructions, 31 -> 27
    /// atomics; a plain call is 2,105 / 20).
    @inlinable
    func count<Value>(_ operation: Future<Value>, ticket: Ticket, since start: Int64) {
        operation.storage.subscribe(
            .step { [self] storage, kind in
                let error: (any Error)? =
                    if kind == .rejected, case .rejected(let error) = storage.snapshot() { error } else { nil }
                finish(ticket, kind: kind, error: error, since: start)
            })
    }

    /// A trial call: the breaker's probe of the backend, which runs to its end whatever its
    /// consumers do, within ``CircuitBreakerPolicy/slowCallDuration``.
    ///
    /// Why: a trial its consumer gives up on counts as nothing and gives its place back. In a
    /// fan-out whose other calls the half-open breaker refuses, the request gives up at the
    /// first refusal, and with it on every trial it started: each request takes the trials
    /// and returns them unanswered, and the breaker never learns that the backend is back
    /// (`Examples/Service` stayed half-open through every calm phase after an outage). So a
    /// consumer's request stops at the future returned here (a promise with no handler ignores
    /// it), and the trial is bounded instead: past the slow-call duration its call is asked to
    /// stop, and, ended then, it is a slow trial, which reopens the breaker (a call that ignores
    /// requests holds its place until it ends). The bound is the breaker's own, not the
    /// request's deadline (a trial outlives the request that started it).
    @usableFromInline
    func probe<Value>(
        _ operation: Future<Value>, ticket: Ticket, since start: Int64
    ) -> Future<Value> {
        count(operation, ticket: ticket, since: start)
        // The bound: at the slow-call duration the timeout asks the call to stop, and the call,
        // ended then, is a slow trial (see `finish`). Observed, so that its own timeout error
        // is nobody's unobserved failure; held by the call and its timer until either ends.
        Deadline.withoutValue { operation.timeout(after: bounded.slowCallDuration, clock: clock) }
            .whenResolved { _ in }
        let shield = Promise<Value>()
        shield.resolve(from: operation)
        return shield.future
    }
}
