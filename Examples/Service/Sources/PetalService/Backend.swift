import NIOCore
import NIOPosix

/// The simulated backends that every variant calls: one type, so that a call costs the same
/// whichever variant makes it.
///
/// Backend `i` answers `key * i` after a random 1 to 5 ms, from a timer on the event loop given
/// (`scheduleTask`: no thread sleeps); one call in 50 never answers, and holds its handler until
/// it is cancelled. Counts are kept per variant.
final class Backend: Sendable {
    /// The odds that a call never answers: one in this many.
    static let hangOneIn: UInt64 = 50
    /// The shortest and longest answer delays, in microseconds.
    static let delayMicroseconds: ClosedRange<UInt64> = 1_000...5_000

    private let counters: [VariantCounters]
    private let random = RandomSource()
    /// The loop the backends' answers come from: their own, as a client library's connections
    /// have theirs, so that the server's front door, busy refusing a flood, delays no answer.
    private let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Backends with zeroed counters for every variant.
    init() {
        counters = Variant.allCases.map { _ in VariantCounters() }
    }

    /// The loop a request's calls should be made from and answered on.
    func nextLoop() -> any EventLoop {
        loops.next()
    }

    /// The counters of `variant`.
    func counters(of variant: Variant) -> VariantCounters {
        counters[variant.rawValue]
    }

    /// Calls backend `index` for `variant`: `completion` receives `key * index`, on `loop`, after
    /// 1 to 5 ms, unless the call never answers or is cancelled first.
    ///
    /// Never calls `completion` before returning: answers always come from the timer.
    func call(
        _ index: Int, key: Int, for variant: Variant, on loop: any EventLoop,
        completion: @escaping BackendCall.Completion
    ) -> BackendCall {
        let call = BackendCall(counters: counters[variant.rawValue], completion: completion)
        let draw = random.next()
        // A hanging call arms no timer: its handler waits in `call` until someone cancels it.
        guard draw % Self.hangOneIn != 0 else { return call }
        let span = Self.delayMicroseconds.upperBound - Self.delayMicroseconds.lowerBound + 1
        let delay = Self.delayMicroseconds.lowerBound + (draw / Self.hangOneIn) % span
        let value = key * index
        call.arm(loop.scheduleTask(in: .microseconds(Int64(delay))) { call.answer(value) })
        return call
    }
}
