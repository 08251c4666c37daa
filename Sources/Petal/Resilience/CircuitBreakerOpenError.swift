/// The error of a call that a ``CircuitBreaker`` refused without running it: the breaker was
/// open, or half-open with every trial call taken.
///
/// A service answers it at once (an HTTP `503`, with `Retry-After` from ``retryAt``): the
/// backend behind the breaker has been failing, and a call sent now would most likely fail too,
/// after costing the backend its work and the caller its wait.
public struct CircuitBreakerOpenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name of the breaker that refused the call.
    public let breaker: String
    /// The breaker's state when it refused: ``CircuitBreaker/State/open`` or
    /// ``CircuitBreaker/State/halfOpen``.
    public let state: CircuitBreaker.State
    /// When the breaker lets trial calls through, on its clock; nil when it is half-open and
    /// every trial call is taken (they decide when it closes).
    public let retryAt: ContinuousClock.Instant?

    /// The error of breaker `breaker`, refusing in `state`, letting calls through at `retryAt`.
    public init(breaker: String, state: CircuitBreaker.State, retryAt: ContinuousClock.Instant?) {
        self.breaker = breaker
        self.state = state
        self.retryAt = retryAt
    }

    /// Names the breaker and its state.
    public var description: String {
        // No instant: it is on the breaker's clock, which may be a test's manual one.
        guard retryAt != nil else { return "circuit breaker \(breaker) is \(state): its trial calls are all taken" }
        return "circuit breaker \(breaker) is \(state): it refuses calls until its open duration is over"
    }
}
