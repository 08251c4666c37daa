/// The rejection error of a timeout (or of a retry waiting out its delay) that Petal could not
/// set, because its timer thread could not be started, or a ``DeadlineTimer`` of the caller's
/// did not take the deadline.
///
/// Petal starts one timer thread on first use. When the process is out of threads (its limit
/// reached, or the system's), that start fails: the timeout is rejected with this error at
/// once, rather than crashing the process or never firing. The next timeout tries again.
public struct TimerUnavailableError: Error, Sendable, CustomStringConvertible {
    /// What `pthread_create` returned (an `errno` value, such as `EAGAIN`), or the `errno` value
    /// a ``DeadlineTimer`` chose.
    public let code: Int32
    /// Why a ``DeadlineTimer`` did not take the deadline; `nil` for Petal's timer thread.
    public let reason: String?

    /// Creates the error for a thread start that failed with `code`.
    public init(code: Int32) {
        self.code = code
        reason = nil
    }

    /// Creates the error of a ``DeadlineTimer`` that did not take a deadline: `code` is an
    /// `errno` value (such as `ESHUTDOWN`), `reason` says why in words.
    public init(code: Int32, reason: String) {
        self.code = code
        self.reason = reason
    }

    /// One line saying what could not be started, and why.
    public var description: String {
        if let reason { return "the timer did not take the deadline: \(reason); the timeout was not set" }
        return "Petal could not start its timer thread (pthread_create returned \(code)); the timeout was not set"
    }
}
