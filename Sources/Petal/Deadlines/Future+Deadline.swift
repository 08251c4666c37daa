extension Future {
    /// A future that follows this one unless `deadline` passes first, in which case it is
    /// rejected with the deadline's ``Deadline/exceededError``: a request's answer bounded by
    /// the deadline it was given on arrival.
    ///
    /// The same as ``timeout(at:on:clock:cancellingUpstream:)`` at the deadline's instant, on its
    /// clock.
    @inlinable
    public func timeout<Context: ExecutionContext>(
        by deadline: Deadline, on context: Context = .inline, cancellingUpstream: Bool = true
    ) -> Future<Value> {
        timeout(at: deadline.instant, on: context, clock: deadline.clock, cancellingUpstream: cancellingUpstream)
    }
}
