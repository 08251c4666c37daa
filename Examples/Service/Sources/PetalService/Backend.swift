import Foundation
import NIOCore
import NIOPosix
import Petal
import PetalNIO

/// The simulated backends that every variant calls: one type, so that a call costs the same
/// whichever variant makes it.
///
/// Backend `i` answers `key * i` after a random 1 to 5 ms, from a timer on the event loop given
/// (`scheduleTask`: no thread sleeps); one call in 50 never answers, and holds its handler until
/// it is cancelled. Counts are kept per variant.
///
/// With a fault schedule (`--faults`), each call asks it which fault is injected as the call
/// starts: in an `outage` it fails at once (from the loop, never before `call` returns), in a
/// `hang` it never answers, when `slow` it answers after 5 to 15 ms, and in a `shift`
/// after 2 to 8 ms.
final class Backend: Sendable {
    /// The odds that a call never answers: one in this many.
    static let hangOneIn: UInt64 = 50
    /// The shortest and longest answer delays, in microseconds.
    static let delayMicroseconds: ClosedRange<UInt64> = 1_000...5_000
    /// The same, while a `slow` fault lasts.
    static let slowDelayMicroseconds: ClosedRange<UInt64> = 5_000...15_000
    /// The same, while a `shift` fault lasts.
    static let shiftDelayMicroseconds: ClosedRange<UInt64> = 2_000...8_000

    /// The faults injected, counted from the server's start (``FaultSchedule/begin()``).
    let faults: FaultSchedule

    private let counters: [VariantCounters]
    private let random = RandomSource()
    /// The loop the backends' answers come from: their own, as a client library's connections
    /// have theirs, so that the server's front door, busy refusing a flood, delays no answer.
    private let loops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The clock of the Petal variants' deadlines (timeouts, hedge delays, retry waits): kept
    /// by the loop that answers the calls, which wakes for them anyway, rather than by Petal's
    /// timer thread, which would wake at every deadline a request answered in time left behind
    /// (issue 57: about 8 to 10 µs of CPU a request; see the README's service table).
    let clock: DeadlineClock

    /// Backends with zeroed counters for every variant, injecting `faults`.
    init(faults: FaultSchedule = FaultSchedule()) {
        counters = Variant.allCases.map { _ in VariantCounters() }
        self.faults = faults
        // One loop: every request's calls are made on it, and its clock keeps their deadlines.
        clock =
            ProcessInfo.processInfo.environment["PETAL_SERVICE_CLOCK"] == "thread"
            ? .continuous : DeadlineClock.eventLoop(loops.next())
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
    /// 1 to 5 ms, unless the call never answers or is cancelled first; or, in an outage,
    /// ``BackendUnavailableError`` at once, on `loop`.
    ///
    /// Never calls `completion` before returning: answers always come from the loop.
    func call(
        _ index: Int, key: Int, for variant: Variant, on loop: any EventLoop,
        completion: @escaping BackendCall.Completion
    ) -> BackendCall {
        let call = BackendCall(counters: counters[variant.rawValue], completion: completion)
        let fault = faults.current()
        if fault == .outage {
            // Failed from the loop, as a refused connection is reported: not before returning.
            loop.execute { call.fail(BackendUnavailableError()) }
            return call
        }
        let draw = random.next()
        // A hanging call arms no timer: its handler waits in `call` until someone cancels it.
        guard draw % Self.hangOneIn != 0, fault != .hang else { return call }
        let delays =
            switch fault {
            case .slow: Self.slowDelayMicroseconds
            case .shift: Self.shiftDelayMicroseconds
            default: Self.delayMicroseconds
            }
        let span = delays.upperBound - delays.lowerBound + 1
        let delay = delays.lowerBound + (draw / Self.hangOneIn) % span
        let value = key * index
        call.arm(loop.scheduleTask(in: .microseconds(Int64(delay))) { call.answer(value) })
        return call
    }
}

/// What a backend call fails with during an outage: the backend is down. The route answers the
/// request `503` (counted as `failed` in `/stats`).
struct BackendUnavailableError: Error, CustomStringConvertible {
    var description: String { "the backend is unavailable" }
}
