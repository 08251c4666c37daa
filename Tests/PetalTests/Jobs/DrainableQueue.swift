import Dispatch
import Petal

/// A dispatch queue whose work a test can wait for: when ``drain()`` returns, everything it was
/// given has run, including the work that work gave it (each piece joins the group before the
/// piece that submitted it leaves).
struct DrainableQueue: ExecutionContext {
    let queue: DispatchQueue
    private let group = DispatchGroup()

    init(_ queue: DispatchQueue) {
        self.queue = queue
    }

    func execute(_ work: @escaping @Sendable () -> Void) {
        queue.async(group: group, execute: work)
    }

    /// Returns once every piece of work given so far has run.
    func drain() {
        group.wait()
    }
}
