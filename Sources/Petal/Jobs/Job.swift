import CPetal

/// A single-use unit of asynchronous work with an input, an output and cancellation.
///
/// Subclass it and override ``start(with:)``. Your override begins with the bookkeeping guard,
/// then does the work, and finishes with ``complete(with:)`` or ``fail(with:)``, from any
/// thread, now or later:
///
/// ```swift
/// final class Download: Job<URL, Data> {
///     override func start(with url: URL) {
///         guard begin() else { return }     // not started twice, not started once cancelled
///         client.fetch(url) { result in
///             switch result {
///             case .success(let data): self.complete(with: data)
///             case .failure(let error): self.fail(with: error)
///             }
///         }
///     }
///     override func wasCancelled(withIndirectError indirectError: (any Error)?) {
///         client.cancelFetch(url)
///     }
/// }
/// ```
///
/// Start a job with `Future.start(running:with:on:pool:)` (or chain it with
/// `then(_:on:pool:)`), and read its result from ``future``:
/// fulfilled when the job completes, rejected when it fails, cancelled when it is cancelled.
///
/// ## State
///
/// ``state`` moves as ``JobState`` draws it, by compare-and-swap on one atomic word: lock-free,
/// already the new state when the call that moved it returns. Exactly one of
/// ``complete(with:)``, ``fail(with:)`` and ``cancel(withIndirectError:)`` wins, even when they
/// race on several threads; the others change nothing and return `false`. A second start is
/// reported through ``PetalDiagnostics/handler`` (a ``PetalDiagnostic/Kind/repeatedJobStart``) and ignored.
/// The moves are checked by `Tests/Model/petal_job_state.pml`: the state only goes forward, one
/// start begins the work, and one finish resolves the future.
///
/// ## Cancellation
///
/// ``cancel(withIndirectError:)`` cancels the job whatever it is doing; ``attemptCancel()`` is
/// the polite form a ``CancellationPool`` and upstream cancellation requests use (override it
/// to decline, for example while a commit cannot be interrupted). After a cancellation wins,
/// ``wasCancelled(withIndirectError:)`` runs on the cancelling thread with no lock held, so it
/// may read ``state`` or call any method of the job. A request to cancel the job's future
/// (``Future/requestCancellation()``) calls ``attemptCancel()``.
///
/// ## Threads
///
/// Every method is safe from any thread. A job is `Sendable` whatever its types, like
/// Foundation's `Operation`: its own state is one atomic word and an immutable promise. Your
/// subclass's stored state is yours to protect, and so is `Output` as it passes from the thread
/// that completes the job to the future's observers. Swift asks a subclass to restate the
/// conformance (`final class Download: Job<URL, Data>, @unchecked Sendable`), which is the place
/// to write down how its own state is protected.
open class Job<Input, Output>: Cancellable, @unchecked Sendable {
    // @unchecked: the state word is only touched through C atomics; `promise` and `record`
    // are immutable and synchronised by the cell protocol and the record's atomics.
    // Subclasses document their own state.

    /// The promise the job resolves; the job holds the only reference, so a job dropped
    /// before it finished cancels its future with an ``AbandonedPromiseError``.
    private let promise: Promise<Output>

    /// The future's cancellation record, which keeps the job's state word: a job's future
    /// always has one (a request asks the job), so the state needs no allocation of its own.
    private let record: CancellationRecord

    /// The state word, at a stable address in the record (never a stored property passed to C).
    private var stateWord: UnsafeMutablePointer<petal_atomic_word> { record.producerStateWord }

    /// The job's result: fulfilled when it completes, rejected when it fails, cancelled when it
    /// is cancelled (with the indirect error given to ``cancel(withIndirectError:)``).
    public let future: Future<Output>

    /// Creates a pending job.
    ///
    /// - Parameters:
    ///   - fileID: The creation site's file, shown if the job is dropped unfinished.
    ///   - line: The creation site's line.
    public init(fileID: StaticString = #fileID, line: UInt = #line) {
        promise = Promise(fileID: fileID, line: line)
        future = promise.future
        // Installed before the future is shared, so this record is the one the future keeps.
        let storage = future.storage
        record = storage.makeCancellationRecord(producerState: petal_word(JobState.pending.rawValue))
        // A request to cancel the future asks this job. Weak: the job owns its promise, and a
        // dropped job must still abandon it.
        storage.markPropagating()
        storage.addCancellationAction { [weak self] in self?.attemptCancel() }
    }

    /// The job's current state. Never blocks.
    public final var state: JobState {
        JobState(rawValue: UInt(petal_atomic_word_load(stateWord))).unsafelyUnwrapped
    }

    /// Moves from one of `sources` to `target`; returns the state seen on failure.
    private func transition(from sources: (JobState) -> Bool, to target: JobState) -> (won: Bool, seen: JobState) {
        var seen = petal_atomic_word_load(stateWord)
        while true {
            let current = JobState(rawValue: UInt(seen)).unsafelyUnwrapped
            guard sources(current) else { return (false, current) }
            // FULL (see petal_atomics.h): the winner's earlier writes, such as a subclass's before
            // `complete`, happen before any thread that reads the new state.
            if petal_atomic_word_exchange(stateWord, &seen, petal_word(target.rawValue)) != 0 {
                return (true, target)
            }
        }
    }

    /// Work to start: the bookkeeping guard that begins every ``start(with:)`` override.
    ///
    /// Moves the job from pending or enqueued to executing and returns `true`: go ahead. Returns
    /// `false` if the job must not run: it is cancelled (silently: a cancelled job is expected
    /// to be started by a chain that did not know yet), or it already started or finished (the
    /// repeat is reported through ``PetalDiagnostics/handler``).
    ///
    /// ```swift
    /// override func start(with input: Input) {
    ///     guard begin() else { return }
    ///     ...
    /// }
    /// ```
    public final func begin() -> Bool {
        let (won, seen) = transition(from: { $0 == .pending || $0 == .enqueued }, to: .executing)
        if !won && seen != .cancelled { reportRepeatedStart(seen) }
        return won
    }

    /// Marks the job as handed to a context by a `start` function: pending to enqueued.
    /// Returns `false` (reporting a repeat unless cancelled) if it was not pending.
    final func enqueue() -> Bool {
        let (won, seen) = transition(from: { $0 == .pending }, to: .enqueued)
        if !won && seen != .cancelled { reportRepeatedStart(seen) }
        return won
    }

    private func reportRepeatedStart(_ state: JobState) {
        PetalDiagnostics.report(.job(type(of: self)), details: ["state": "\(state)"])
    }

    /// Starts the job's work with `input`. Override it; the default fails the job with an
    /// ``UnimplementedJobError``.
    ///
    /// Called once by whoever starts the job (a `start` function on its context, or a chain),
    /// on that thread. Begin with `guard begin() else { return }`, then finish, now or later on
    /// any thread, with ``complete(with:)`` or ``fail(with:)``.
    open func start(with input: Input) {
        guard begin() else { return }
        fail(with: UnimplementedJobError(jobType: type(of: self)))
    }

    /// Finishes the job with `output`: the future is fulfilled, and its inline callbacks run on
    /// this thread before this returns.
    ///
    /// - Returns: `true` if the job was unfinished and is now completed; `false` if it had
    ///   already completed, failed or been cancelled (nothing changes).
    @discardableResult
    public final func complete(with output: Output) -> Bool {
        guard transition(from: { !$0.isFinished }, to: .completed).won else { return false }
        return promise.future.storage.fulfil(with: output)
    }

    /// Finishes the job with `error`: the job's own work failed, so the future is rejected, and
    /// its inline callbacks run on this thread before this returns.
    ///
    /// - Returns: `true` if the job was unfinished and is now failed; `false` if it had already
    ///   completed, failed or been cancelled (nothing changes).
    @discardableResult
    public final func fail(with error: any Error) -> Bool {
        guard transition(from: { !$0.isFinished }, to: .failed).won else { return false }
        return promise.future.storage.fail(
            .rejected, error: error, failureSite: promise.site.failureSite(of: Output.self))
    }

    /// Cancels the job, whatever it is doing, optionally naming the error elsewhere that made
    /// its work pointless.
    ///
    /// If the job was unfinished: it is now cancelled, ``wasCancelled(withIndirectError:)``
    /// runs on this thread, then the future is cancelled with `indirectError` (its inline
    /// callbacks run on this thread before this returns). A job not yet started never starts.
    ///
    /// - Returns: `true` if this call cancelled the job; `false` if it had already finished.
    @discardableResult
    public final func cancel(withIndirectError indirectError: (any Error)? = nil) -> Bool {
        guard beginCancellation(withIndirectError: indirectError) else { return false }
        return finishCancellation(withIndirectError: indirectError)
    }

    /// The first half of ``cancel(withIndirectError:)``: the job is cancelled and its hook runs,
    /// but its future is not resolved yet. For cancelling several jobs with one error: once
    /// every job is cancelled, their futures' observers (a group's combined future, whose first
    /// failure asks the other jobs to cancel) can no longer cancel any of them without it.
    /// Returns `false` if the job had already finished; otherwise call
    /// ``finishCancellation(withIndirectError:)`` with the same error.
    final func beginCancellation(withIndirectError indirectError: (any Error)?) -> Bool {
        guard transition(from: { !$0.isFinished }, to: .cancelled).won else { return false }
        wasCancelled(withIndirectError: indirectError)
        return true
    }

    /// The second half: cancels the future of a job that ``beginCancellation(withIndirectError:)`` cancelled.
    @discardableResult
    final func finishCancellation(withIndirectError indirectError: (any Error)?) -> Bool {
        let failureSite = indirectError == nil ? 0 : promise.site.failureSite(of: Output.self)
        return promise.future.storage.fail(.cancelled, error: indirectError, failureSite: failureSite)
    }

    /// Cancels the job if it can be cancelled now; the default cancels it unless it has
    /// finished, without an indirect error.
    ///
    /// Called by ``CancellationPool/drain()`` and by cancellation requests on ``future``, on
    /// their thread. Override it to decline at times your work cannot stop, or to cancel
    /// differently; call ``cancel(withIndirectError:)`` to cancel.
    open func attemptCancel() {
        cancel(withIndirectError: nil)
    }

    /// A hook that runs once, right after the job was cancelled (``state`` is already
    /// ``JobState/cancelled``) and before its future is cancelled, on the cancelling thread,
    /// with no lock held: stop the work here (cancel a request, a timer, a task). It may read
    /// the job's state and call any of its methods. The default does nothing.
    open func wasCancelled(withIndirectError indirectError: (any Error)?) {}
}

/// The error a ``Job`` whose subclass did not override ``Job/start(with:)`` fails with.
public struct UnimplementedJobError: Error, CustomStringConvertible {
    /// The job's dynamic type.
    public let jobType: Any.Type

    /// One line naming the job type.
    public var description: String { "\(jobType) does not override start(with:)" }
}
