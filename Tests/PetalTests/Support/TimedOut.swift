import Petal

/// The rejection of `outcome`, if it is a timeout: what the time tests check a deadline by.
func timedOut<Value>(_ outcome: Outcome<Value>?) -> FutureTimeoutError? {
    guard case .rejected(let error)? = outcome else { return nil }
    return error as? FutureTimeoutError
}
