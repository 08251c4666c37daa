#if ServiceLifecycle
    import Petal

    /// How a ``RequestDrain``'s end is counted once it has begun: the stripes with requests
    /// pending, plus one while `run()` is still asking; the last to finish fulfils the promise
    /// `run()` waits on.
    ///
    /// Only touched while the drain runs: tracking and resolving requests before then never
    /// take its lock.
    final class DrainProgress: Sendable {
        private struct State {
            var unfinished = 0
            var idle: Promise<Void>?
        }

        private let state = PosixLock(State())

        /// The shares not finished yet.
        var unfinished: Int { state.withLock { $0.unfinished } }

        /// Begins the count with `run()`'s own share, for `idle`.
        func begin(fulfilling idle: Promise<Void>) {
            state.withLock {
                $0.unfinished = 1
                $0.idle = idle
            }
        }

        /// A stripe has requests to wait for.
        func add() {
            state.withLock { $0.unfinished += 1 }
        }

        /// A stripe emptied, or `run()` has asked every request: the last share fulfils `idle`.
        func finishedOne() {
            let idle = state.withLock { state -> Promise<Void>? in
                state.unfinished -= 1
                guard state.unfinished == 0 else { return nil }
                defer { state.idle = nil }
                return state.idle
            }
            idle?.fulfil(with: ())
        }
    }
#endif
