#if NIO
    import NIOCore
    import Petal

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Musl)
        import Musl
    #elseif canImport(Darwin)
        import Darwin
    #endif

    extension DeadlineClock {
        /// Real time, with every deadline made on this clock (timeouts, hedge delays, retry
        /// backoffs, limit waits) kept by `loop`'s own timer instead of Petal's timer thread; the
        /// operations that expire run on `loop`.
        ///
        /// Why: a deadline taken out before it passes (a request answered before its timeout)
        /// still wakes Petal's timer thread at its instant; an event loop recomputes its next
        /// wake-up on every turn, so on the loop that answers a request's I/O the same deadline
        /// costs no wake-up at all. Make one clock per loop when the service starts, keep it, and
        /// give a request's `Deadline` the clock of the loop its work runs on:
        ///
        /// ```swift
        /// let clock = DeadlineClock.eventLoop(loop)   // once, at start-up
        /// // In a request whose calls are made and answered on `loop`:
        /// let deadline = Deadline(after: .milliseconds(20), from: arrival, clock: clock)
        /// ```
        ///
        /// Its instants are real time: a deadline made on `DeadlineClock.continuous` is
        /// honoured by operations on this clock, and the other way round.
        ///
        /// The clock must not outlive its loop: shut the loop down after the work timed on it. A
        /// deadline still pending when the loop shuts down never expires, and one made on a loop
        /// that has shut down is dropped by NIO (which prints an error).
        public static func eventLoop(_ loop: any EventLoop) -> DeadlineClock {
            DeadlineClock(timer: EventLoopDeadlineTimer(loop: loop))
        }
    }

    /// A `DeadlineTimer` on an event loop's scheduled callbacks: one for each wake-up the
    /// clock asks for, never cancelled (NIO finds a callback to cancel by walking its whole queue).
    struct EventLoopDeadlineTimer: DeadlineTimer {
        let loop: any EventLoop

        func schedule(
            at deadline: ContinuousClock.Instant, _ wake: @escaping @Sendable () -> Void
        ) throws(TimerUnavailableError) {
            // NIO keeps its deadlines on its own clock (uptime); the time left is the same on
            // both, rounded up so that the loop never wakes the clock before the instant.
            let left = ContinuousClock.now.duration(to: deadline).components
            let nanoseconds = left.seconds &* 1_000_000_000 &+ (left.attoseconds + 999_999_999) / 1_000_000_000
            do {
                _ = try loop.scheduleCallback(
                    at: .now() + .nanoseconds(max(nanoseconds, 0)), handler: LoopExpiry(wake: wake))
            } catch {
                throw TimerUnavailableError(code: ESHUTDOWN, reason: "the event loop did not take it (\(error))")
            }
        }
    }

    /// What the loop runs at a wake-up.
    private struct LoopExpiry: NIOScheduledCallbackHandler, Sendable {
        let wake: @Sendable () -> Void

        func handleScheduledCallback(eventLoop: some EventLoop) {
            wake()
        }
    }
#endif
