/// The rejection error of a timeout (or of a retry waiting out its delay) that Petal could not
/// set, because its timer thread could not be started.
///
/// Petal starts one timer thread on first use. When the process is out of threads (its limit
/// reached, or the system's), that start fails: the timeout is rejected with this error at
/// once, rather than crashing the process or never firing. The next timeout tries again.
public struct TimerUnavailableError: Error, Sendable, CustomStringConvertible {
    /// What `pthread_create` returned (an `errno` value, such as `EAGAIN`).
    public let code: Int32

    /// Creates the error for a thread start that failed with `code`.
    public init(code: Int32) {
        self.code = code
    }

    /// One line saying what could not be started, and why.
    public var description: String {
        "Petal could not start its timer thread (pthread_create returned \(code)); the timeout was not set"
    }
}
