import CPetal

/// Stops calling a backend that fails: after enough of its calls failed (or were slow), the
/// breaker **opens** and refuses every call at once, without running it; after a while it lets
/// a few **trial** calls through, and closes again if they all succeed.
///
/// ```swift
/// let breaker = CircuitBreaker(name: "inventory", policy: CircuitBreakerPolicy(openDuration: .seconds(5)))
///
/// func stock(_ item: Item) -> Future<Int> {
///     breaker.run { inventory.fetch(item) }  // a CircuitBreakerOpenError at once while open
/// }
/// ```
///
/// Why: a backend that is down answers every call with an error, or not at all. Calling it
/// anyway costs each request its wait (up to its deadline, for a backend that hangs), and the
/// backend the load it can least afford while it recovers. An open breaker answers in a
/// compare-and-swap instead, and the backend sees a few trial calls until it is back.
///
/// The states (``State``), as resilience4j and Polly have them:
/// - **Closed**: every call runs, and its outcome is counted in a sliding window
///   (``CircuitBreakerPolicy/window``: the last N calls, or the last D seconds). A failed or
///   slow call that finds, with ``CircuitBreakerPolicy/minimumCalls`` calls in the window, the
///   share of failures at or above ``CircuitBreakerPolicy/failureRateThreshold`` (or the share
///   of slow calls at or above ``CircuitBreakerPolicy/slowCallRateThreshold``) opens the
///   breaker. A success lowers both rates, so only a failed or slow call looks at the window.
/// - **Open**: every call is refused, rejected with a ``CircuitBreakerOpenError`` (carrying
///   when it will try again), its closure never run, for ``CircuitBreakerPolicy/openDuration``.
/// - **Half-open**: the first call after the open duration moves the breaker to half-open and
///   is the first of ``CircuitBreakerPolicy/trialCalls`` calls let through; the others are
///   refused. When every trial has succeeded, the breaker closes, with an empty window; the
///   first trial that fails, or is slow, opens it again for another open duration.
///
/// What counts as a failure: a rejection, unless it says the call never reached the backend or
/// ``isFailure`` says otherwise. A cancelled call (its consumers gave up, or its work was
/// dropped), a ``ConcurrencyLimitExceededError`` (a limit refused it), a
/// ``CircuitBreakerOpenError`` (another breaker did), and the request's deadline refusing it
/// (``Deadline/exceededError``, returned at once) count as nothing, neither success nor
/// failure: a trial call that ends so gives its place back to another. But a call cancelled
/// after running ``CircuitBreakerPolicy/slowCallDuration`` or longer counts as a slow call: a
/// backend that hangs answers nothing, and its calls end only when their consumers give up, so
/// that this is what the slow-call rate sees of a hang. A rejection ``isFailure`` declines (a
/// `404`, say: the backend answered) counts as a success.
///
/// Cost: the closed path takes no lock: one load of the state word when the call starts and
/// one when it ends, two readings of the clock (to find slow calls; one for a hedged call
/// answered before its hedge, see ``HedgingPolicy/breaker``), and one compare-and-swap
/// on a bucket of the window, in cache lines of its thread's stripe (a count window numbers
/// its calls with one more, on a word all calls share); a failed or slow call also reads the
/// window's buckets, 8 stripes of up to 64. In a busy service most successes skip the count:
/// a time window on a real clock that holds thousands of calls counts one success in up to
/// 64, as that many calls, chosen by a per-thread sequence, and every failure and slow
/// call (the rates it reads are estimates within a few percent; see <doc:CircuitBreakers>). Only a change of state
/// moves the state word, by compare-and-swap (see `BreakerWord`, and the model that checks
/// those moves, `Tests/Model/petal_breaker.pml`; the window's buckets have theirs,
/// `Tests/Model/petal_breaker_window.pml`).
///
/// Every change of state is reported to ``PetalDiagnostics/handler`` as a
/// ``PetalDiagnostic/Kind/circuitBreakerStateChanged``, by the thread that made it, just after
/// (changes made on two threads may be reported in either order); with the `Metrics` trait,
/// `PetalMetrics.track(_:)` publishes the state as a gauge.
///
/// How it composes with the other tools, in either order: see <doc:CircuitBreakers>.
public final class CircuitBreaker: @unchecked Sendable {
    // @unchecked: `word` is reached only through C atomics, at an address of its own; the
    // window is lock-free itself; everything else is immutable and Sendable.

    /// The state of a breaker.
    public enum State: Sendable, Hashable, CustomStringConvertible {
        /// Calls run, and their outcomes are counted.
        case closed
        /// Calls are refused, without running, until the open duration is over.
        case open
        /// A few trial calls run, and decide whether the breaker closes or opens again.
        case halfOpen

        /// `closed`, `open` or `half-open`.
        public var description: String {
            switch self {
            case .closed: "closed"
            case .open: "open"
            case .halfOpen: "half-open"
            }
        }
    }

    // The fields the closed path reads come first, so that they share the object's first cache
    // line (they sat after the policy and its bounded copy, lines apart): in a server a call's
    // admission and its count come milliseconds apart, with other requests' work between them,
    // so every line the path touches is likely a miss.
    let word: UnsafeMutablePointer<petal_atomic_word>
    let window: BreakerWindow
    /// The time ticks and periods count from, in ``nanosecondsNow``'s nanoseconds.
    let origin: Int64
    /// The slow-call duration in nanoseconds, rounded up, so that a call is slow as its duration
    /// in nanoseconds reaches it.
    let slowCallNanoseconds: Int64
    /// Whether ``clock`` is real time, read without it: `DeadlineClock.now` takes its
    /// scheduler's lock to learn whether the clock is manual, which the closed path must not.
    @usableFromInline
    let readsRealTime: Bool
    /// The clock that times the calls and the open duration.
    public let clock: DeadlineClock
    /// The name the breaker's reports and errors give it (the backend's, say).
    public let name: String
    /// When the breaker opens and closes, as given (values out of range are used as its
    /// properties say).
    public let policy: CircuitBreakerPolicy
    /// Whether a rejection counts as a failure of the backend; asked only for rejections that do
    /// not already count as nothing (see ``CircuitBreaker``).
    public let isFailure: @Sendable (any Error) -> Bool
    /// The policy with every value brought into its range: what the breaker reads.
    let bounded: CircuitBreakerPolicy
    /// The open duration in milliseconds, rounded up, and one more (at most 24 days and a
    /// millisecond: it fits). All of it, not only its seconds: a retry tick set more than this
    /// ahead reads as wrapped, and so as due at once (an open duration under a second let every
    /// call try again).
    private let openTicks: UInt32
    /// The open duration in nanoseconds (truncated: ticks are milliseconds).
    private let openNanoseconds: Int64

    /// A closed breaker named `name`, that opens and closes as `policy` says, on `clock`.
    ///
    /// - Parameters:
    ///   - name: What its reports and errors call it.
    ///   - policy: The thresholds, the window, the open duration and the trial calls. Values
    ///     out of range are adjusted as its properties say, and reported once, here, as an
    ///     ``PetalDiagnostic/Kind/adjustedArgument``.
    ///   - clock: Times the calls (slow or not), the time window and the open duration: `.manual`
    ///     in tests, to decide when the breaker half-opens without waiting.
    ///   - isFailure: Whether a rejection is a failure of the backend; by default every one is
    ///     (but those that count as nothing, see ``CircuitBreaker``).
    public init(
        name: String, policy: CircuitBreakerPolicy = CircuitBreakerPolicy(), clock: DeadlineClock = .continuous,
        isFailure: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        policy.reportAdjustments()
        self.name = name
        self.policy = policy
        self.isFailure = isFailure
        self.clock = clock
        readsRealTime = !clock.isManual  // a clock is made manual or not, and stays so
        // A block of its own: every call loads the state word, and a line shared with words
        // that other cores write (a window's bucket, another object's counts) would miss as
        // often as they write. The window's success mask beside it: written at most once a
        // period, and read by every success as it ends.
        word = LineWords.allocate(2)
        word.pointee = petal_atomic_word(value: BreakerWord.closed)
        window = BreakerWindow(policy.boundedWindow, sampling: readsRealTime, maskWord: word + 1)
        origin = clock.nanosecondsNow
        bounded = policy.bounded
        let (seconds, attoseconds) = bounded.openDuration.components
        openTicks = UInt32(seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000 + 1)
        openNanoseconds = bounded.openDuration.truncatedNanoseconds
        let slow = bounded.slowCallDuration.truncatedNanoseconds
        slowCallNanoseconds = bounded.slowCallDuration > .nanoseconds(slow) ? slow + 1 : slow
    }

    deinit {
        LineWords.deallocate(word)
    }

    /// The state now (other threads may be changing it). An open breaker whose open duration
    /// is over reads `open` until a call arrives and half-opens it.
    public var state: State {
        Self.state(of: petal_atomic_word_load(word))
    }

    /// The error a call made now would be refused with, or `nil` if it would be let through:
    /// open with its open duration not over, or half-open with every trial taken.
    ///
    /// A hint, as ``ConcurrencyLimit/isFull`` is: read it once before work that would only make
    /// calls the breaker refuses, a request's fan-out to the breaker's backend, and refuse that
    /// work at once instead of each of its calls (the example service's `resilient` refusing a
    /// request of 32 calls this way, not call by call). ``run(on:_:)`` still decides: the state
    /// may change between the two. Closed, one load; otherwise a load and a clock read.
    public var refusal: CircuitBreakerOpenError? {
        // ACQUIRE, as `admit`'s load.
        let seen = petal_atomic_word_load(word)
        switch BreakerWord.state(seen) {
        case BreakerWord.closed:
            return nil
        case BreakerWord.open:
            let nowTick = tick(at: nanosecondsNow, roundingUp: false)
            guard !BreakerWord.isDue(BreakerWord.retryTick(seen), now: nowTick, openTicks: openTicks) else {
                return nil
            }
            return openError(retryTick: BreakerWord.retryTick(seen), nowTick: nowTick)
        default:
            guard BreakerWord.admitted(seen) >= bounded.trialCalls else { return nil }
            return CircuitBreakerOpenError(breaker: name, state: .halfOpen, retryAt: nil)
        }
    }

    private static func state(of word: petal_word) -> State {
        switch BreakerWord.state(word) {
        case BreakerWord.closed: .closed
        case BreakerWord.open: .open
        default: .halfOpen
        }
    }

    // MARK: Outcomes

    /// How a call was let through: the epoch it was admitted in, shifted left by one, and in
    /// the lowest bit whether it is a trial of a half-open epoch (else it counts in the window
    /// of a closed one). A plain integer, so that the closure that waits for the call's outcome
    /// captures no enum to copy through value witnesses.
    ///
    /// A call refused is a ticket too, at or above ``refused``: bit 62 set if the breaker was
    /// open (else half-open with its trials taken), and in the low 32 bits the milliseconds
    /// until it lets a trial through (see ``refusal(for:)``). So the caller keeps no optional
    /// error, whose size it would learn at run time (it holds an instant of the concurrency
    /// library), on the path every call takes.
    @usableFromInline
    typealias Ticket = UInt64

    /// The least ticket of a refused call.
    @usableFromInline
    static var refused: Ticket { 1 << 63 }

    private static func ticket(epoch: UInt32, trial: Bool) -> Ticket { Ticket(epoch) << 1 | (trial ? 1 : 0) }

    /// The error a call refused with `ticket` (at or above ``refused``) is rejected with.
    @usableFromInline
    func refusal(for ticket: Ticket) -> CircuitBreakerOpenError {
        guard ticket & (1 << 62) != 0 else {
            return CircuitBreakerOpenError(breaker: name, state: .halfOpen, retryAt: nil)
        }
        let wait = Int64(Int32(bitPattern: UInt32(truncatingIfNeeded: ticket)))
        return CircuitBreakerOpenError(breaker: name, state: .open, retryAt: now + .milliseconds(wait))
    }

    /// The error of a call refused now, at `nowTick`, by an open breaker that lets a trial
    /// through at `retryTick`.
    private func openError(retryTick: UInt32, nowTick: UInt32) -> CircuitBreakerOpenError {
        refusal(for: Self.refused | 1 << 62 | Ticket(retryTick &- nowTick))
    }

    // MARK: The word's moves

    private func exchange(_ seen: inout petal_word, _ next: petal_word) -> Bool {
        // FULL (see petal_atomics.h): a change of state is ordered after the window's restart
        // that precedes a close, and every call that loads the new state sees both.
        petal_atomic_word_exchange(word, &seen, next) != 0
    }

    /// Lets a call through: at once while closed (a load, no write); else as a trial, if the
    /// open duration is over or a trial's place is free; else not, and `refused` says why.
    @usableFromInline
    func admit() -> Ticket {
        // ACQUIRE: a closed state seen comes with the window's restart that preceded it.
        var seen = petal_atomic_word_load(word)
        if BreakerWord.state(seen) == BreakerWord.closed {
            return Self.ticket(epoch: BreakerWord.epoch(seen), trial: false)
        }
        let nowTick = tick(at: nanosecondsNow, roundingUp: false)
        while let next = BreakerWord.admitting(
            seen, nowTick: nowTick, openTicks: openTicks, trialCalls: bounded.trialCalls)
        {
            let opened = BreakerWord.state(seen) == BreakerWord.open
            if exchange(&seen, next) {
                if opened { changed(from: .open, to: .halfOpen) }
                return Self.ticket(epoch: BreakerWord.epoch(next), trial: true)
            }
        }
        // The failed compare-and-swap may have found it closed meanwhile.
        if BreakerWord.state(seen) == BreakerWord.closed {
            return Self.ticket(epoch: BreakerWord.epoch(seen), trial: false)
        }
        guard BreakerWord.state(seen) == BreakerWord.open else { return Self.refused }
        return Self.refused | 1 << 62 | Ticket(BreakerWord.retryTick(seen) &- nowTick)
    }

    /// The closed path of ``admit()`` from the state word alone (see ``hotWords``): the ticket
    /// of a call let through now, or `nil` if the breaker is not closed, for ``admit()`` to
    /// decide.
    @inline(__always)
    static func closedTicket(words: UnsafeMutablePointer<petal_atomic_word>) -> Ticket? {
        // ACQUIRE, as `admit()`'s load.
        let seen = petal_atomic_word_load(words)
        guard BreakerWord.state(seen) == BreakerWord.closed else { return nil }
        return ticket(epoch: BreakerWord.epoch(seen), trial: false)
    }

    /// The weight a success that was neither slow nor failed, of a call let through with
    /// `ticket`, is counted with (see ``succeededFast(_:at:weight:)``), from the state word's
    /// line alone: 0 if the window does not sample it. A trial is always counted, by its own
    /// path (its weight is not read).
    ///
    /// Asked as the call is admitted, from the line its admission has just loaded, not as it
    /// ends: in a server the call ends milliseconds later, other requests' work between, and a
    /// success not counted then touches none of the breaker's lines. As sound as asking at the
    /// end: the mask is the one of the period the call began in, and the admitting thread's
    /// draws are spread evenly over its calls, whichever of them fail (see `SampleDraw`).
    @inline(__always)
    static func fastSuccessWeight(_ ticket: Ticket, words: UnsafeMutablePointer<petal_atomic_word>) -> Int {
        ticket & 1 != 0 ? 1 : weightOfSuccess(words: words)
    }

    /// The state word and the window's success mask beside it, which a call's admission and
    /// its fast count read: a ``HedgingPolicy``'s plan keeps their address, so that in calm a
    /// hedged call reaches them from the plan's line without loading this object's (in a
    /// server each line a call touches, milliseconds apart among other requests' work, is
    /// likely a miss). Valid for as long as this breaker lives.
    var hotWords: UnsafeMutablePointer<petal_atomic_word> { word }

    /// Opens the breaker, if it is still closed in `epoch`.
    func trip(epoch: UInt32, at now: Int64) {
        let retryTick = tick(at: now &+ openNanoseconds, roundingUp: true)
        // ACQUIRE, then FULL compare-and-swaps: a move is a function of the whole word seen.
        var seen = petal_atomic_word_load(word)
        while let next = BreakerWord.tripping(seen, epoch: epoch, retryTick: retryTick) {
            if exchange(&seen, next) { return changed(from: .closed, to: .open) }
        }
    }

    /// Counts a trial of half-open `epoch`, if the breaker is still half-open in it: the last
    /// success closes it (with a fresh window), a failure opens it, and a trial that counts as
    /// nothing gives its place back.
    func settle(trial epoch: UInt32, _ outcome: BreakerOutcome, at now: Int64) {
        let retryTick = tick(at: now &+ openNanoseconds, roundingUp: true)
        // ACQUIRE, then FULL compare-and-swaps, as in `trip`.
        var seen = petal_atomic_word_load(word)
        while let next = BreakerWord.settling(
            seen, epoch: epoch, outcome, trialCalls: bounded.trialCalls, retryTick: retryTick)
        {
            // Before the close is published, so that no call of the new closed state counts in
            // the old window.
            if BreakerWord.state(next) == BreakerWord.closed { window.restart(elapsed: now &- origin) }
            if exchange(&seen, next) {
                let state = Self.state(of: next)
                if state != .halfOpen { changed(from: .halfOpen, to: state) }
                return
            }
        }
    }

    // MARK: Time and reports

    /// The clock's time: real time read with no lock, or a manual clock's.
    var now: ContinuousClock.Instant { readsRealTime ? .now : clock.now }

    /// The clock's time in nanoseconds, for differences (see `DeadlineClock.nanosecondsNow`):
    /// real time read with no lock, or a manual clock's. What every call is timed by.
    @usableFromInline
    var nanosecondsNow: Int64 { readsRealTime ? DeadlineScheduler.realNanoseconds : clock.nanosecondsNow }

    /// `time` (``nanosecondsNow``'s) in milliseconds since the breaker's making, wrapping at
    /// 2^32: rounded down for the time now and up for a retry, so that a retry tick reached is a
    /// retry instant passed.
    private func tick(at time: Int64, roundingUp: Bool) -> UInt32 {
        let nanoseconds = time &- origin
        let milliseconds = nanoseconds / 1_000_000 + (roundingUp && nanoseconds % 1_000_000 > 0 ? 1 : 0)
        return UInt32(truncatingIfNeeded: milliseconds)
    }

    private func changed(from old: State, to new: State) {
        PetalDiagnostics.report(
            .named(.circuitBreakerStateChanged, "CircuitBreaker"),
            details: ["breaker": name, "from": old.description, "to": new.description])
    }
}
