import CPetal

/// A hedge delay that follows the latency: a percentile of the latencies the hedged calls of a
/// ``HedgingPolicy`` observe, over a recent window, within a floor and a ceiling.
///
/// ```swift
/// // Hedge at the 95th percentile of the last 2 seconds' calls, never sooner than 1 ms after
/// // the call began nor later than 15 ms.
/// let latencies = LatencyPercentile(0.95, floor: .milliseconds(1), ceiling: .milliseconds(15))
/// let policy = HedgingPolicy(copies: 2, delay: latencies, budget: budget)
/// let value = Future.hedging(policy) { backend.fetch(key) }
/// ```
///
/// Why: a fixed delay is right only while the backend's latency stays where it was measured.
/// When the backend slows down past it, every call outlives the delay and sends its copy: the
/// budget then refuses most copies, and the few it lets through go to ordinary slow calls, not to
/// the lost ones a hedge exists for. A delay at a percentile of what the calls take now sends
/// about that share of copies (5% at the 95th), to the calls slower than the rest, whatever the
/// latency, as Finagle's backup requests do.
///
/// What is counted: a share of the hedged calls that share this records, when it is decided by a
/// fulfilment, how long it took from its start: every call while they are few, and fewer as they
/// grow, so that each half window holds about 1,024 samples (or `minimumSamples`, if more): one
/// call in 2, 4, ... up to 64, picked by the low bits of the time it began, which say nothing of
/// how long it will take. The share is chosen again at every turn of the window (below), from the
/// samples of the half window that ends and the share they were taken at. A thousand samples read
/// the same percentile as a million, and the calls not timed skip a reading of the clock and the
/// histogram's adds; a service with few calls times every one, so that its window still holds
/// `minimumSamples`. ``record(_:)`` counts every latency given to it. A copy that
/// wins may be faster than the first copy it replaced, whose own latency is then known only to be
/// longer; so a call that a copy decided, or that was cancelled or rejected after waiting at least
/// the delay, records its time too, as a latency at least that long. Calls that fail or are
/// cancelled sooner record nothing: a backend that fails fast must not pull the delay down.
///
/// The window: samples older than `window` are forgotten, in halves (the counts are kept in two
/// generations that take turns every half window), so the percentile covers between a half and
/// a whole window of calls; until `minimumSamples` are counted, the delay is the ceiling.
/// The counts are log-linear, 16 buckets an octave: a percentile is read within 6.25% above it.
///
/// Cost: a hedged call loads the share (beside the delay, in a block of cache lines of its own:
/// `LineWords`); a sample is two atomic adds, a load, and a clock read; every 32nd sample, the
/// thread that records it reads the percentile again (one pass from the highest bucket counted
/// in down to the answer: at the 95th percentile, over the slowest twentieth of the samples)
/// under a lock that no other thread waits for: a thread that finds it taken skips. Reading the
/// delay is one atomic load. Shared by any number of policies and threads. Callgrind, per sample
/// of 1-5 ms with the percentile read every 32nd: 120 instructions, 3 atomics, no allocation
/// (452 when the read was two passes over every bucket); hdrhistogram-swift's `Histogram` (two
/// significant digits) behind a `Mutex`, the same work: 4,100 instructions, 3 atomics, and one
/// lock that every thread recording waits on (`Scripts/profile --contenders Petal,HdrHistogram
/// --operations "latency record"`, run once per contender).
public final class LatencyPercentile: @unchecked Sendable {
    // @unchecked: `histogram` and `delayWord` are C atomics; `turnedAt` is only touched under
    // `refreshing`; everything else is immutable.

    /// The delay now, in nanoseconds; then the share of calls timed, less one (a power of two
    /// less one: a call is timed when the low bits of its start under it are zero). Read by every
    /// hedged call, written only under `refreshing`, on lines of their own.
    /// First, so that the call finds it in the object's first cache line (see
    /// `CircuitBreaker.word`).
    private let delayWord: UnsafeMutablePointer<petal_atomic_word>

    /// The percentile, as a fraction of the calls (0.95: the 95th percentile), in
    /// `0.5...0.999`: a value below is read as 0.5 (a hedge at the median already doubles half
    /// the calls), above (or not a number) as 0.999; both are reported when this is made.
    public let percentile: Double
    /// The shortest delay: a percentile below it is read as it. Negative: zero.
    public let floor: Duration
    /// The longest delay, and the delay until enough calls are counted: a percentile above it is
    /// read as it. Below `floor`: `floor`; above ``DeadlineClock/longestWait``: that.
    public let ceiling: Duration
    /// How long a latency counts: samples are forgotten in halves of it. Below 10 ms: 10 ms.
    public let window: Duration
    /// The samples needed before the percentile is used. Below 1: 1.
    public let minimumSamples: Int
    /// The clock that keeps the window (by default real time; a manual clock in tests).
    public let clock: DeadlineClock

    private let histogram: LatencyHistogram
    private var shareWord: UnsafeMutablePointer<petal_atomic_word> { delayWord + 1 }
    /// Taken by the thread that reads the percentile again; never waited for.
    private let refreshing = Monitor()
    /// When the generations last took turns, in `clock`'s nanoseconds: no instant, whose
    /// arithmetic goes through the concurrency library's value witnesses, and no `clock.now`,
    /// which takes the scheduler's lock to learn whether the clock is manual.
    private var turnedAt: Int64
    /// Half the window, and the window, in nanoseconds.
    private let halfWindowNanoseconds: Int64
    private let windowNanoseconds: Int64

    /// Samples between two readings of the percentile.
    private static let refreshEvery = 32
    /// The samples a half window should hold, when `minimumSamples` asks for no more.
    private static let samplesPerHalfWindow = 1_024
    /// The smallest share of calls timed: one in this many.
    private static let largestShare = 64

    /// A delay at `percentile` (a fraction: 0.95 for the 95th) of the latencies of the last
    /// `window`, kept by `clock`, within `floor` and `ceiling`; the ceiling until
    /// `minimumSamples` latencies are counted.
    ///
    /// Any value is accepted, as one read from configuration may hold anything: each property
    /// says what a value out of its range means, and each such value is reported once, here, as
    /// an ``PetalDiagnostic/Kind/adjustedArgument``.
    public init(
        _ percentile: Double, floor: Duration, ceiling: Duration, window: Duration = .seconds(2),
        minimumSamples: Int = 100, clock: DeadlineClock = .continuous
    ) {
        let boundedPercentile = percentile >= 0.5 ? Swift.min(percentile, 0.999) : (percentile.isNaN ? 0.999 : 0.5)
        let boundedFloor = Swift.max(floor, .zero)
        let boundedCeiling = Swift.min(Swift.max(ceiling, boundedFloor), DeadlineClock.longestWait)
        let boundedWindow = Swift.max(window, .milliseconds(10))
        let boundedMinimum = Swift.max(minimumSamples, 1)
        self.percentile = boundedPercentile
        self.floor = Swift.min(boundedFloor, boundedCeiling)
        self.ceiling = boundedCeiling
        self.window = boundedWindow
        self.minimumSamples = boundedMinimum
        self.clock = clock
        histogram = LatencyHistogram(largest: Self.microseconds(Self.nanoseconds(boundedCeiling)))
        delayWord = LineWords.allocate(2)
        delayWord.pointee = petal_atomic_word(value: petal_word(Self.nanoseconds(boundedCeiling)))
        turnedAt = clock.nanosecondsNow
        windowNanoseconds = Self.nanoseconds(boundedWindow)
        halfWindowNanoseconds = windowNanoseconds / 2
        func report(_ name: StaticString, _ given: some CustomStringConvertible, _ used: some CustomStringConvertible) {
            PetalDiagnostics.report(.named(.adjustedArgument, name), details: ["given": "\(given)", "used": "\(used)"])
        }
        // NaN is never equal to itself: compared by bits, so that a NaN given is reported.
        if boundedPercentile.bitPattern != percentile.bitPattern {
            report("LatencyPercentile.percentile", percentile, boundedPercentile)
        }
        if boundedFloor != floor { report("LatencyPercentile.floor", floor, boundedFloor) }
        if boundedCeiling != ceiling { report("LatencyPercentile.ceiling", ceiling, boundedCeiling) }
        if boundedWindow != window { report("LatencyPercentile.window", window, boundedWindow) }
        if boundedMinimum != minimumSamples {
            report("LatencyPercentile.minimumSamples", minimumSamples, boundedMinimum)
        }
    }

    deinit {
        LineWords.deallocate(delayWord)
    }

    /// The delay now: the percentile of the window's latencies within `floor...ceiling`, or the
    /// ceiling until `minimumSamples` are counted.
    public var delay: Duration {
        .nanoseconds(delayNanoseconds)
    }

    /// ``delay`` in nanoseconds, as it is kept: what a hedged call compares its latency with,
    /// without a conversion each way.
    var delayNanoseconds: Int64 {
        Self.delayNanoseconds(hotWords: delayWord)
    }

    /// The delay word and the timed share's beside it, which every hedged call reads as it
    /// begins: a ``HedgingPolicy``'s plan keeps their address, so that a call reaches them from
    /// the plan's line without loading this object's (see `CircuitBreaker.hotWords`). Valid
    /// for as long as this object lives.
    var hotWords: UnsafeMutablePointer<petal_atomic_word> { delayWord }

    /// ``delayNanoseconds``, from ``hotWords`` alone.
    @inline(__always)
    static func delayNanoseconds(hotWords: UnsafeMutablePointer<petal_atomic_word>) -> Int64 {
        // ACQUIRE, though nothing else is read with it: the delay is a value, not a handover.
        Int64(petal_atomic_word_load(hotWords))
    }

    /// The latencies counted in the window now.
    public var samples: Int { histogram.samples }

    /// Counts one call's latency; every 32nd sample reads the percentile again (see the type's
    /// cost note). A negative latency counts as zero.
    public func record(_ latency: Duration) {
        record(nanoseconds: latency.truncatedNanoseconds)
    }

    /// Whether a hedged call that began at `nanoseconds` (its clock's reading, see
    /// `DeadlineScheduler.nanosecondsNow`) counts its latency: one call in ``timedShare``, by the
    /// low bits of that reading, which say nothing of how long the call will take. A call not
    /// timed reads no clock when it ends, if its breaker (if any) needs none, and touches no
    /// bucket: about 150 instructions, two locked adds and 20 ns a call. A clock that moves
    /// in whole microseconds (a manual clock in tests) times every call up to a share of 8.
    func times(callBeganAt nanoseconds: Int64) -> Bool {
        Self.times(callBeganAt: nanoseconds, hotWords: delayWord)
    }

    /// ``times(callBeganAt:)``, from ``hotWords`` alone.
    @inline(__always)
    static func times(callBeganAt nanoseconds: Int64, hotWords: UnsafeMutablePointer<petal_atomic_word>) -> Bool {
        // ACQUIRE, though only the value is read.
        UInt64(bitPattern: nanoseconds) & UInt64(petal_atomic_word_load(hotWords + 1)) == 0
    }

    /// One hedged call in this many is timed now: a power of two, from 1 (every call, while
    /// they are few) to 64, chosen at each turn of the window so that a half window holds about
    /// 1,024 samples (or `minimumSamples`).
    public var timedShare: Int {
        Int(petal_atomic_word_load(shareWord)) + 1
    }

    /// ``record(_:)`` for a latency in nanoseconds: what a hedged call measures.
    func record(nanoseconds: Int64) {
        let count = histogram.record(microseconds: Self.microseconds(nanoseconds))
        if count % Self.refreshEvery == 0 { refresh() }
    }

    /// Reads the percentile again, now, and turns the generations if half a window has passed:
    /// what recording does every 32nd sample. Returns the delay.
    @discardableResult
    public func refresh() -> Duration {
        guard refreshing.tryLock() else { return delay }
        defer { refreshing.unlock() }
        let now = clock.nanosecondsNow
        let sinceTurn = now &- turnedAt
        if sinceTurn >= halfWindowNanoseconds {
            chooseShare(samples: histogram.activeSamples, over: sinceTurn)
            histogram.turn(both: sinceTurn >= windowNanoseconds)
            turnedAt = now
        }
        var nanoseconds = Self.nanoseconds(ceiling)
        if histogram.samples >= minimumSamples, let value = histogram.value(atFraction: percentile) {
            let read = Int64(clamping: value) * 1000
            nanoseconds = Swift.min(Swift.max(read, Self.nanoseconds(floor)), nanoseconds)
        }
        // RELEASE: any thread's next hedged call reads the new delay. Only this thread writes
        // the word (under `refreshing`): a delay that did not move is not written.
        let next = petal_word(nanoseconds)
        if petal_atomic_word_load(delayWord) != next { petal_atomic_word_store(delayWord, next) }
        return .nanoseconds(nanoseconds)
    }

    /// Chooses the share of calls timed for the next half window, from the `samples` of the one
    /// that ends, taken over `elapsed` nanoseconds at the share in force: the largest share that
    /// still leaves a half window its samples (``samplesPerHalfWindow``, or `minimumSamples`).
    /// Under `refreshing`.
    private func chooseShare(samples: Int, over elapsed: Int64) {
        let current = Int(petal_atomic_word_load(shareWord)) + 1
        let calls = Double(samples) * Double(current) * Double(halfWindowNanoseconds) / Double(Swift.max(elapsed, 1))
        let wanted = Double(Swift.max(Self.samplesPerHalfWindow, minimumSamples))
        var share = 1
        while share < Self.largestShare && calls >= wanted * Double(2 * share) { share *= 2 }
        // RELEASE, as the delay's store; a share that did not move is not written.
        if share != current { petal_atomic_word_store(shareWord, petal_word(share - 1)) }
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.truncatedNanoseconds
    }

    private static func microseconds(_ nanoseconds: Int64) -> UInt {
        UInt(Swift.max(nanoseconds, 0) / 1000)
    }
}
