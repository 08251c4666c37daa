/// Where a ``Job`` is in its life.
///
/// ```
///   pending ──► enqueued ──► executing ──► completed
///      │           │             │    └──► failed
///      └───────────┴─────────────┴───────► cancelled
/// ```
///
/// A job moves only forwards, and every move is one atomic compare-and-swap on one word, so a
/// state read on any thread is one the job really was in, and the state is already the new one
/// when the call that moved it returns. ``completed``, ``failed`` and ``cancelled`` are final;
/// exactly one of them is reached, by the first of ``Job/complete(with:)``, ``Job/fail(with:)``
/// and ``Job/cancel(withIndirectError:)`` (the others then change nothing).
public enum JobState: UInt, Sendable, CustomStringConvertible {
    /// Created, not yet handed to anything that starts it.
    case pending = 0
    /// Handed to an execution context by one of the `start` functions, not yet running.
    case enqueued = 1
    /// ``Job/begin()`` succeeded: the job's work is under way.
    case executing = 2
    /// Finished with an output: the job's future is fulfilled.
    case completed = 3
    /// Finished with an error: the job's future is rejected.
    case failed = 4
    /// Cancelled before it finished: the job's future is cancelled.
    case cancelled = 5

    /// Whether the state is final (completed, failed or cancelled).
    public var isFinished: Bool { rawValue >= JobState.completed.rawValue }

    /// The state's name.
    public var description: String {
        switch self {
        case .pending: return "pending"
        case .enqueued: return "enqueued"
        case .executing: return "executing"
        case .completed: return "completed"
        case .failed: return "failed"
        case .cancelled: return "cancelled"
        }
    }
}
