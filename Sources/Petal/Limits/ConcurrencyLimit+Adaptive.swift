import CPetal

/// An adaptive limit's side of ``ConcurrencyLimit``: what a caller reports of each operation's
/// time, and the calm time the limit compares with.
extension ConcurrencyLimit {
    /// Counts the time of one operation for an adaptive limit that times what its caller
    /// reports (``AdaptiveLimit/Timing/reported``): a request's whole time, from its arrival to
    /// its answer, say, and whether it was `cancelled` (it missed its deadline, or its client
    /// left), which counts as overload.
    ///
    /// - Returns: false, and nothing counted, for a limit that is not adaptive or times its
    ///   operations itself.
    @discardableResult
    public func report(_ elapsed: Duration, cancelled: Bool = false) -> Bool {
        guard let controller, operationTimer == nil else { return false }
        let word = petal_atomic_word_load(word)
        let maximum = maximum
        let reached = LimitWord.inFlight(word) >= maximum || LimitWord.waiting(word) > 0
        if let next = controller.record(
            elapsed, at: controller.clock.now, reached: reached, cancelled: cancelled, maximum: maximum)
        {
            setBoundedMaximum(next)
        }
        return true
    }

    /// The time in flight an adaptive limit compares with (the mean of its calm windows, see
    /// ``AdaptiveLimit``); nil for a limit that is not adaptive, or before its first window.
    public var baselineLatency: Duration? {
        guard let baseline = controller?.baseline, baseline.isFinite else { return nil }
        return .nanoseconds(Int64(baseline))
    }
}
