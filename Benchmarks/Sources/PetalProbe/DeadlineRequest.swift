import CBenchSupport
import Petal

/// A request's deadline (issue 55, item 2): what a subscription and a timeout cost once a
/// deadline is bound, against the same work with none ever bound.
///
/// For `Scripts/profile`: each operation runs in a process of its own, so "timeout" runs with
/// no deadline ever bound (the off path every service pays: one load and a branch), while the
/// "under a deadline" operations run inside one `Deadline.withValue` for the whole loop: an
/// operation is the work a request's handler does, not the binding, which a request makes once.
/// - "timeout": a call guarded by `timeout(after:)`, answered in time; its timer entry is
///   scheduled and taken out.
/// - "subscribe with a deadline bound": create+subscribe+fulfil with a deadline bound, so the
///   callback captures the deadline and runs inside it.
/// - "timeout under a deadline": "timeout" with a later deadline bound (the timeout's own
///   deadline is the earlier, so nothing but the reading and carrying differs).
/// Every clock is a manual one that never moves, so nothing fires.
enum DeadlineRequest {
    private static let clock = DeadlineClock.manual()

    /// `count` promises, each timed out after a second, observed, then fulfilled.
    static func timeout(_ count: Int) {
        for value in 0..<count {
            let call = Promise<Int>()
            call.future.timeout(after: .seconds(1), clock: clock).whenFulfilled { _ in bench_count_add() }
            call.fulfil(with: value)
        }
    }

    /// `count` promises, each subscribed and fulfilled inside a bound deadline.
    static func subscribeUnderDeadline(_ count: Int) {
        Deadline.withValue(Deadline(after: .seconds(20), clock: clock)) {
            for value in 0..<count {
                let call = Promise<Int>()
                call.future.whenFulfilled { _ in bench_count_add() }
                call.fulfil(with: value)
            }
        }
    }

    /// ``timeout(_:)`` inside a bound deadline later than each timeout.
    static func timeoutUnderDeadline(_ count: Int) {
        Deadline.withValue(Deadline(after: .seconds(20), clock: clock)) { timeout(count) }
    }
}
