import CPetal

/// A bound on the extra calls that retries and hedges send, shared by every policy that uses it:
/// extra calls at most a given share of the first calls, plus a burst.
///
/// Why: a retry policy bounds the attempts of one call, not the load on the backend. When a
/// backend fails, every call retries, and a policy of three attempts triples the load on the
/// backend that is already down; when it slows down, every hedged call outlives its delay and
/// sends its copy. A budget shared by every ``RetryPolicy`` and ``HedgingPolicy`` that calls one
/// backend lets through only as many extra calls as its share allows, whatever the policies say:
/// a backend that is down sees at most (1 + `share`) times its usual calls, plus the burst.
///
/// ```swift
/// // One budget per backend: retries and hedges together send at most 10% more calls.
/// let budget = RetryBudget(share: 0.1, burst: 64)
/// let retry = RetryPolicy(attempts: 3, initialDelay: .milliseconds(20), budget: budget)
/// let hedge = HedgingPolicy(copies: 2, delay: .milliseconds(5), budget: budget)
/// ```
///
/// This is a token bucket, as gRPC's retry throttling and Finagle's `RetryBudget` are: each first
/// call (a ``Future/retrying(_:on:clock:_:)`` or ``Future/hedging(_:on:clock:_:)`` call that
/// begins) deposits `share` of a token, up to `burst` tokens; each extra call (a retry, a hedge's
/// extra copy) spends one, and gives it back if it never starts (its call was decided or stopped
/// while it waited for its turn), so that the budget counts and bounds the extra calls sent. A
/// refused retry gives up with the last attempt's error; a refused copy is not sent, and the call
/// waits for the copies it has. The bucket starts full. Loops nested on one budget (a
/// `retrying` whose attempts are `hedging` calls, or the reverse) deposit once per call: the
/// inner loop's first call is the outer loop's attempt, already paid for.
///
/// Lock-free: a deposit into a full bucket is one atomic load, a deposit or a spend one
/// compare-and-swap (and a spend one locked add to count it). Tokens are counted in
/// thousandths, as gRPC's are, so that many threads add shares to one word without a lock. The
/// bucket's moves are checked by `Tests/Model/petal_retry_budget.pml`: it stays within the
/// burst, no move is lost, and a spend always finds a whole token.
public final class RetryBudget: @unchecked Sendable {
    // @unchecked: the mutable state is four C atomic words at a stable address, written only
    // by compare-and-swap (the bucket) and locked adds (the counters); `share`, `burst` and the units are immutable.

    /// The share of first calls that may send an extra call, in the long run (0.05: one in
    /// twenty), rounded to thousandths.
    public let share: Double
    /// How many extra calls may be sent at once after a quiet spell (the bucket's size).
    public let burst: Int
    /// The most a `share` may be: a call sends at most ``HedgingPolicy/maximumCopies`` copies,
    /// and a share this large already lets every retry through.
    public static let maximumShare = Double(HedgingPolicy.maximumCopies)
    /// The largest `burst`: the bucket counts thousandths of a token in a machine word (more than
    /// four million tokens on 32-bit platforms, far more on 64-bit; a larger bucket never refuses
    /// anyway).
    public static let maximumBurst = Int.max / (2 * unitsPerToken)

    /// A token, in the units the bucket counts.
    private static let unitsPerToken = 1000
    /// `share`, in units.
    private let shareUnits: petal_word
    /// `burst`, in units.
    private let capacityUnits: petal_word
    /// The words: tokens (in units), extra calls sent, refused, given back.
    private let words: UnsafeMutablePointer<petal_atomic_word>
    private var tokens: UnsafeMutablePointer<petal_atomic_word> { words }
    private var sent: UnsafeMutablePointer<petal_atomic_word> { words + 1 }
    private var refused: UnsafeMutablePointer<petal_atomic_word> { words + 2 }
    private var givenBack: UnsafeMutablePointer<petal_atomic_word> { words + 3 }

    /// A budget of `share` extra calls per first call in the long run, and up to `burst` at once.
    ///
    /// Choosing `burst`: a slow moment of the backend makes every hedged call in flight outlive
    /// its delay together, and a failing moment makes every call retry together, so the burst
    /// should cover the calls of the requests in flight then: about two requests' worth of the
    /// calls one request makes (64 for a fan-out of 32 calls, as the example service and the
    /// service guide use; the default, 10, suits a request of a few calls). Too small, and the
    /// calls of one slow moment find the bucket empty and wait for their deadline, which is the
    /// tail hedging is for.
    ///
    /// Any value is accepted and reported if out of range (an ``PetalDiagnostic/Kind/adjustedArgument``):
    /// a `share` that is negative or not a number is 0 (no extra call beyond the burst), one
    /// above ``maximumShare`` is that, and a positive one below a thousandth, which would round
    /// to 0, is also reported; a `burst` below 0 is 0, one above ``maximumBurst`` is that.
    public init(share: Double, burst: Int = 10) {
        let bounded = share.isNaN ? 0 : Swift.min(Swift.max(share, 0), Self.maximumShare)
        let units = (bounded * Double(Self.unitsPerToken)).rounded()
        let used = units / Double(Self.unitsPerToken)
        if bounded != share || (units == 0 && share > 0) {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "RetryBudget.share"), details: ["given": "\(share)", "used": "\(used)"])
        }
        let boundedBurst = Swift.min(Swift.max(burst, 0), Self.maximumBurst)
        if boundedBurst != burst {
            PetalDiagnostics.report(
                .named(.adjustedArgument, "RetryBudget.burst"),
                details: ["given": "\(burst)", "used": "\(boundedBurst)"])
        }
        self.share = used
        self.burst = boundedBurst
        shareUnits = petal_word(units)
        capacityUnits = petal_word(boundedBurst * Self.unitsPerToken)
        words = .allocate(capacity: 4)
        // The bucket starts full; the counters at zero.
        words.initialize(to: petal_atomic_word(value: capacityUnits))
        (words + 1).initialize(repeating: petal_atomic_word(value: 0), count: 3)
    }

    deinit {
        words.deinitialize(count: 4)
        words.deallocate()
    }

    /// Extra calls the budget let through and that started: a call let through counts from
    /// then, and if it never starts (its call was decided or stopped while it waited for its
    /// turn, or its context dropped it) its token comes back. So once the calls have settled,
    /// this is exactly the number of retries and extra copies whose `body` ran.
    public var extraCallsSent: Int {
        petal_atomic_word_load(sent)
    }

    /// Extra calls the budget refused so far (each a retry given up, or a hedged call that then
    /// waited for its copies).
    public var extraCallsRefused: Int {
        petal_atomic_word_load(refused)
    }

    /// Extra calls let through that never started and gave their tokens back (for the tests:
    /// they show that the race between a decision and a waiting call was run).
    var extraCallsGivenBack: Int {
        petal_atomic_word_load(givenBack)
    }

    /// A first call begins: its share of a token, up to the burst.
    func deposit() {
        // A full bucket, the calm case, is one load and no write.
        var seen = petal_atomic_word_load(tokens)
        while seen < capacityUnits {
            // No overflow: `capacityUnits` is at most half a word, the share a few thousand units.
            let next = Swift.min(seen + shareUnits, capacityUnits)
            if petal_atomic_word_exchange(tokens, &seen, next) != 0 { return }
        }
    }

    /// Whether one more extra call may be sent; spends a token and counts it as sent if so, and
    /// counts a refusal if not.
    func withdraw() -> Bool {
        let token = petal_word(Self.unitsPerToken)
        var seen = petal_atomic_word_load(tokens)
        while seen >= token {
            if petal_atomic_word_exchange(tokens, &seen, seen - token) != 0 {
                Self.add(1, to: sent)
                return true
            }
        }
        Self.add(1, to: refused)
        return false
    }

    /// An extra call let through never started: its token comes back (up to the burst), and it
    /// is not counted as sent.
    func giveBack() {
        var seen = petal_atomic_word_load(tokens)
        while true {
            let next = Swift.min(seen + petal_word(Self.unitsPerToken), capacityUnits)
            if petal_atomic_word_exchange(tokens, &seen, next) != 0 { break }
        }
        Self.add(-1, to: sent)
        Self.add(1, to: givenBack)
    }

    /// Adds `delta` (negative to take away) to a counter word: one locked add.
    private static func add(_ delta: Int, to word: UnsafeMutablePointer<petal_atomic_word>) {
        _ = petal_atomic_word_add(word, petal_word(delta))
    }
}
