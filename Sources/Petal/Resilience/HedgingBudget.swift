/// A bound on the extra copies that hedged calls send, shared by every call that uses it: extra
/// copies at most a given share of the calls, plus a burst.
///
/// Why: when a backend slows down under load, every call outlives its delay and would be sent
/// twice, doubling the load on the backend that is already struggling. A budget lets through
/// only as many extra copies as the share allows; past it, a call waits for the copies it has.
/// This is a token bucket, as gRPC's retry throttling and Finagle's retry budget are: each
/// hedged call deposits `share` of a token, up to `burst` tokens; each extra copy spends one,
/// and gives it back if it never starts (its call was decided while it waited for its execution
/// context), so that the budget counts and bounds the copies sent. The bucket starts full.
///
/// One lock, held for a few instructions per call: a budget is one per backend, not per call.
public final class HedgingBudget: Sendable {
    /// The share of calls that may send an extra copy, in the long run (0.05: one in twenty).
    public let share: Double
    /// How many extra copies may be sent at once after a quiet spell (the bucket's size).
    public let burst: Int
    private let state: PosixLock<State>

    private struct State {
        var tokens: Double
        var spent = 0
        var refused = 0
        var givenBack = 0
    }

    /// A budget of `share` extra copies per call in the long run, and up to `burst` at once.
    ///
    /// Choosing `burst`: a slow moment of the backend makes every call in flight outlive its
    /// delay together, so the burst should cover the calls of the requests in flight then: about
    /// two requests' worth of the calls one request makes (64 for a fan-out of 32 calls, as the
    /// example service and the service guide use; the default, 10, suits a request of a few
    /// calls). Too small, and the calls of one slow moment find the bucket empty and wait for
    /// their deadline, which is the tail hedging is for.
    ///
    /// Any value is accepted and reported if out of range (an ``PetalDiagnostic/Kind/adjustedArgument``):
    /// a `share` that is negative or not a number is 0 (no extra copy beyond the burst), one
    /// above ``HedgingPolicy/maximumCopies`` is that; a `burst` below 0 is 0.
    public init(share: Double, burst: Int = 10) {
        let boundedShare = share.isNaN ? 0 : Swift.min(Swift.max(share, 0), Double(HedgingPolicy.maximumCopies))
        if boundedShare != share {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingBudget.share"),
                details: ["given": "\(share)", "used": "\(boundedShare)"])
        }
        if burst < 0 {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "HedgingBudget.burst"), details: ["given": "\(burst)", "used": "0"])
        }
        self.share = boundedShare
        self.burst = Swift.max(burst, 0)
        state = PosixLock(State(tokens: Double(self.burst)))
    }

    /// Extra copies the budget let through and that started: a copy let through counts from
    /// then, and if its call is decided before the copy's context runs it (or the context drops
    /// it), the copy never starts and its token comes back. So once the calls have settled, this
    /// is exactly the number of extra copies whose `body` ran.
    public var extraCopiesSent: Int {
        state.withLock { $0.spent }
    }

    /// Extra copies the budget refused so far (each a call that then waited for its copies).
    public var extraCopiesRefused: Int {
        state.withLock { $0.refused }
    }

    /// Extra copies let through that never started and gave their tokens back (for the tests:
    /// they show that the race between a decision and a waiting copy was run).
    var extraCopiesGivenBack: Int {
        state.withLock { $0.givenBack }
    }

    /// A hedged call begins: its share of a token, up to the burst.
    func deposit() {
        state.withLock { $0.tokens = Swift.min($0.tokens + share, Double(burst)) }
    }

    /// An extra copy let through never started: its token comes back (up to the burst), and it
    /// is not counted as sent.
    func giveBack() {
        state.withLock {
            $0.tokens = Swift.min($0.tokens + 1, Double(burst))
            $0.spent -= 1
            $0.givenBack += 1
        }
    }

    /// Whether one more extra copy may be sent; spends a token if so.
    func withdraw() -> Bool {
        state.withLock {
            guard $0.tokens >= 1 else {
                $0.refused += 1
                return false
            }
            $0.tokens -= 1
            $0.spent += 1
            return true
        }
    }
}
