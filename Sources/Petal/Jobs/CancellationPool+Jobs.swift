extension CancellationPool {
    /// Adds every job of `jobs`, as ``add(_:)`` does, in order.
    public func add<Input, Output>(contentsOf jobs: [Job<Input, Output>]) {
        for job in jobs { add(job) }
    }
}
