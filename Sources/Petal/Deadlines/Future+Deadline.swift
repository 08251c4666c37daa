extension Future {
    /// A future that follows this one unless `deadline` passes first, in which case it is
    /// rejected with the deadline's ``Deadline/exceededError``: a request's answer bounded by
    /// the deadline it was given on arrival, usually written `timeout(by: .current)`.
    ///
    /// The same as ``timeout(at:on:clock:cancellingUpstream:)`` at the deadline's instant, on its
    /// clock. With no deadline (`nil`: none is bound where `.current` was read), this future
    /// itself: the code reads the same in a request and outside one, and only a request bounds it.
    @inlinable
    public func timeout<Context: ExecutionContext>(
        by deadline: Deadline?, on context: Context = .inline, cancellingUpstream: Bool = true
    ) -> Future<Value> {
        guard let deadline else { return self }
        return timeout(at: deadline.instant, on: context, clock: deadline.clock, cancellingUpstream: cancellingUpstream)
    }
}
