/// One way of writing the fan-out: each has its own route (`/fanout/<name>`), its own file and
/// its own counters.
enum Variant: Int, CaseIterable, Sendable {
    /// Petal's futures and combinators (`PetalFanout`).
    case petal
    /// A task group racing a deadline (`AsyncFanout`).
    case asyncAwait
    /// SwiftNIO's `EventLoopFuture`s (`NIOFanout`).
    case nio
    /// Plain closures and atomics, the floor (`CallbackFanout`).
    case callbacks
    /// Petal's, with every backend call hedged (`HedgedFanout`).
    case hedged
    /// `hedged` behind a concurrency limit on the requests, which sheds (`LimitedFanout`).
    case limited
    /// `limited` with every hedged call retried after a backend's failure (`ResilientFanout`).
    case resilient
    /// `petal` with the calls' promises in one `PromiseBatch` (`BatchFanout`).
    case batch
    /// `petal` as the service guide's first snippets write it: the calls made in the handler's
    /// task, not on the loop that answers them (`GuideFanout`).
    case guide

    /// The name in the route and in `/stats`.
    var name: String {
        switch self {
        case .petal: "petal"
        case .asyncAwait: "async"
        case .nio: "nio"
        case .callbacks: "callbacks"
        case .hedged: "hedged"
        case .limited: "limited"
        case .resilient: "resilient"
        case .batch: "batch"
        case .guide: "guide"
        }
    }
}
