import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one timer behind every pending timeout in the process.
///
/// Why it exists: a timeout must not cost a thread, a kernel timer or a dispatch source per
/// future, and a receiver that resolves in time must leave nothing behind, so that many
/// short-lived futures with long timeouts do not pile up. So the deadlines of all pending
/// timeouts sit in one binary min-heap under one pthread mutex, and one dedicated thread
/// (started on first use and kept for the life of the process) sleeps on a
/// condition variable until the earliest deadline, then runs every due action, outside the lock.
/// An entry whose future resolves first is removed through its remembered heap index.
///
/// Exactly one of ``cancel(_:)`` and the timer thread takes an entry out of the heap, under the
/// mutex: that is the one-shot that decides whether the deadline or the receiver won.
///
/// pthread primitives rather than `Synchronization.Mutex` or a `DispatchSourceTimer`:
/// ThreadSanitizer intercepts and understands them, so sanitised builds of Petal's users see
/// the ordering this type relies on.
@usableFromInline
final class DeadlineScheduler: @unchecked Sendable {
    // @unchecked: what `locked` points to is only touched with `monitor` locked; every stored
    // property is a constant.

    /// The scheduler of every timeout in the process. It survives `fork()`: the child, which
    /// inherits the heap but not the timer thread, starts a thread of its own.
    static let shared: DeadlineScheduler = {
        let scheduler = DeadlineScheduler()
        // Prepare takes the lock, so that the child's copy of the heap is consistent and its
        // lock free; the parent lets go, the child restarts its timer.
        pthread_atfork(
            { DeadlineScheduler.shared.prepareForFork() },
            { DeadlineScheduler.shared.resumeInParentAfterFork() },
            { DeadlineScheduler.shared.restartInChildAfterFork() })
        return scheduler
    }()

    private let monitor = Monitor()
    /// The timer of the caller's that wakes this scheduler for its earliest deadline in place of
    /// the thread (see ``init(timer:)``); `nil` for Petal's own.
    ///
    /// Boxed in a class: checking an optional existential for `nil` copies it through its value
    /// witnesses (callgrind: about 300 instructions on every timeout of Petal's own clock),
    /// where an optional reference is a word compared with zero.
    let timer: DeadlineTimerBox?
    /// Everything `monitor` guards, in one block of its own.
    ///
    /// Why a pointer and not stored variables: Swift checks every access to a class's stored
    /// variable for exclusivity at run time (`swift_beginAccess`: a thread-local access set,
    /// about 75 instructions a check). A hedged call schedules and takes out a timer, eight
    /// checks: callgrind counted about 600 instructions a call, on every timeout, hedge and
    /// retry. The lock already makes these accesses exclusive; through a pointer, nothing
    /// checks them again.
    let locked: UnsafeMutablePointer<Locked>

    /// What the lock guards (see `locked`).
    struct Locked {
        /// The pending deadlines, earliest first.
        var heap = DeadlineHeap()
        /// The instants `timer` was asked to wake this scheduler at and has not yet, latest
        /// first: no wake-up is asked for an entry due at or after the last (the earliest), and
        /// when that one comes, the one before it is the next.
        var armed: [ContinuousClock.Instant] = []
        var threadStarted = false
        /// Set by ``DeadlineScheduler/stop()``: the timer thread exits instead of sleeping on.
        var stopping = false
        /// A manual scheduler's time, moved only by ``DeadlineScheduler/advance(to:)``; `nil`
        /// for a scheduler on `ContinuousClock`, whose thread keeps the deadlines.
        var manualNow: ContinuousClock.Instant?
    }

    /// A manual scheduler's time (lock held), published to ``nanosecondsNow`` as it is set.
    private var manualNow: ContinuousClock.Instant? {
        get { locked.pointee.manualNow }
        set {
            locked.pointee.manualNow = newValue
            publishManualNanoseconds()
        }
    }
    /// Where a manual scheduler's ``nanosecondsNow`` counts from: its first time.
    private let manualOrigin: ContinuousClock.Instant?
    /// A manual scheduler's time in nanoseconds since `manualOrigin`, written under the lock
    /// with `manualNow` and read without it: a test's clock read on every hedged call should
    /// not take the lock the timer's heap is kept under. `nil` for a real scheduler.
    private let manualNanoseconds: UnsafeMutablePointer<petal_atomic_word>?
    /// Whether this is a manual scheduler: fixed when it is made, so that reading the time of
    /// a scheduler on `ContinuousClock` takes no lock. Every `DeadlineClock.now` (a timeout's
    /// start, a deadline's check, a shedder's arrival stamp, a limit's timing) reads it, from
    /// every thread, and the timer thread holds this lock while it keeps the heap.
    private let manual: Bool

    /// The longest single sleep: a far deadline is approached in steps, which also bounds the
    /// drift between the clock the sleep uses and `ContinuousClock`.
    private static let longestSleep = Duration.seconds(60)

    /// Starts the timer thread: `startDetachedThread`, except in tests of a failing start.
    private let startThread: (@escaping @Sendable () -> Void) -> Int32

    init(startThread: @escaping (@escaping @Sendable () -> Void) -> Int32 = startDetachedThread) {
        self.startThread = startThread
        locked = Self.makeLocked(manualNow: nil)
        timer = nil
        manualOrigin = nil
        manualNanoseconds = nil
        manual = false
    }

    /// A scheduler on a manual clock that starts at `start`: no thread; due actions run on the
    /// thread that calls ``advance(to:)``.
    init(manualStartingAt start: ContinuousClock.Instant) {
        self.startThread = { _ in preconditionFailure("Petal: a manual clock has no timer thread") }
        locked = Self.makeLocked(manualNow: start)
        timer = nil
        manualOrigin = start
        manualNanoseconds = .allocate(capacity: 1)
        manualNanoseconds.unsafelyUnwrapped.initialize(to: petal_atomic_word(value: 0))
        manual = true
        publishManualNanoseconds()
    }

    /// A scheduler on real time whose heap `timer` wakes: no thread; the timer is asked for a
    /// wake-up only when the earliest deadline comes earlier than the one it was last asked for.
    init(timer: any DeadlineTimer) {
        self.startThread = { _ in preconditionFailure("Petal: a clock on a timer of its own has no timer thread") }
        locked = Self.makeLocked(manualNow: nil)
        self.timer = DeadlineTimerBox(timer)
        manualOrigin = nil
        manualNanoseconds = nil
        manual = false
    }

    private static func makeLocked(manualNow: ContinuousClock.Instant?) -> UnsafeMutablePointer<Locked> {
        let locked = UnsafeMutablePointer<Locked>.allocate(capacity: 1)
        locked.initialize(to: Locked(manualNow: manualNow))
        return locked
    }

    deinit {
        // The entries still waiting never run: their actions (and what those hold) go now.
        locked.pointee.heap.releaseAll()
        locked.deinitialize(count: 1)
        locked.deallocate()
        manualNanoseconds?.deinitialize(count: 1)
        manualNanoseconds?.deallocate()
    }

    /// Copies `manualNow` into `manualNanoseconds`; called under the lock.
    private func publishManualNanoseconds() {
        guard let manualNanoseconds, let manualOrigin, let manualNow = locked.pointee.manualNow else { return }
        let nanoseconds = petal_word(UInt64(bitPattern: manualOrigin.duration(to: manualNow).truncatedNanoseconds))
        // RELEASE: a store; the only writer holds the lock.
        petal_atomic_word_store(manualNanoseconds, nanoseconds)
    }

    /// Whether time moves only when ``advance(to:)`` moves it.
    var isManual: Bool { manual }

    /// The time deadlines are compared with: a manual scheduler's under its lock (another
    /// thread may be advancing it), `ContinuousClock`'s with none.
    var now: ContinuousClock.Instant {
        guard manual else { return .now }
        return withLock { manualNow.unsafelyUnwrapped }
    }

    /// The time in nanoseconds, on a scale of this scheduler's own: only the difference of two
    /// readings means anything. A manual scheduler's counts from its first time; a real one's is
    /// the system's clock that `ContinuousClock` reads.
    ///
    /// Why not ``now``: an instant is a type of the concurrency library, whose size this module
    /// learns at run time, and every copy of one (or of an optional one), every comparison and
    /// every duration between two goes through its value witnesses and 128-bit arithmetic.
    /// Callgrind put the instants of a hedged call through a breaker, at a percentile, at about
    /// 1,700 instructions a call; the calls, their latencies and the breaker's window need only
    /// differences.
    var nanosecondsNow: Int64 {
        guard manual else { return Self.realNanoseconds }
        // ACQUIRE, though only the value is read: a time, not a handover.
        return Int64(bitPattern: UInt64(petal_atomic_word_load(manualNanoseconds.unsafelyUnwrapped)))
    }

    /// The instant of `nanoseconds`, a reading of ``nanosecondsNow``: what ``now`` would have
    /// read at that moment, so that one reading serves a call's deadline checks and timers as
    /// well as its timings (a hedged call read the clock three times as it began, each reading
    /// about 20 ns: issue 56's calm pair).
    ///
    /// A real scheduler's instant is built from the nanoseconds, as `ContinuousClock` stores
    /// it, when `instantsAreRealNanoseconds` found it so in this process; otherwise it is read
    /// again, as ``now``, which is at most the time this call took later.
    func instant(atNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        guard !manual else { return manualInstant(atNanoseconds: nanoseconds) }
        guard Self.instantsAreRealNanoseconds else { return .now }
        return unsafeBitCast(Duration.nanoseconds(nanoseconds), to: ContinuousClock.Instant.self)
    }

    /// ``instant(atNanoseconds:)`` of a manual scheduler. Apart, so that the real path does not
    /// look up the metadata of an optional instant on its way in.
    @inline(never)
    private func manualInstant(atNanoseconds nanoseconds: Int64) -> ContinuousClock.Instant {
        manualOrigin.unsafelyUnwrapped.advanced(by: .nanoseconds(nanoseconds))
    }

    /// Whether a `ContinuousClock.Instant` is stored as the `Duration` since the origin of the
    /// clock that ``realNanoseconds`` reads, as the Swift runtime stores it on Linux and Darwin:
    /// checked once, against two readings of `ContinuousClock` around one of that clock, so that
    /// a runtime that stores it otherwise costs a reading, never a wrong instant.
    static let instantsAreRealNanoseconds: Bool = {
        guard MemoryLayout<ContinuousClock.Instant>.size == MemoryLayout<Duration>.size else { return false }
        let before = ContinuousClock.now
        let built = unsafeBitCast(Duration.nanoseconds(realNanoseconds), to: ContinuousClock.Instant.self)
        let after = ContinuousClock.now
        return before <= built && built <= after
    }()

    /// The real time in nanoseconds: the clock `ContinuousClock` reads (boot time, which goes on
    /// while the system sleeps, on Linux), read directly.
    static var realNanoseconds: Int64 {
        var time = timespec()
        #if os(Linux) || os(Android)
            clock_gettime(CLOCK_BOOTTIME, &time)
        #else
            clock_gettime(CLOCK_MONOTONIC_RAW, &time)
        #endif
        return Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec)
    }

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try monitor.withLock(body)
    }

    /// How many entries wait for their deadline.
    var pendingCount: Int {
        withLock { locked.pointee.heap.count }
    }

    /// Adds `entry`; its action runs on the timer thread once its deadline has passed, unless
    /// ``cancel(_:)`` removes it first. Schedule an entry at most once.
    ///
    /// - Throws: ``TimerUnavailableError`` if the timer thread was not running and could not be
    ///   started: the entry is not scheduled (a later call tries again).
    @usableFromInline
    func schedule(_ entry: DeadlineEntry) throws(TimerUnavailableError) {
        let failure: TimerUnavailableError? = withLock {
            precondition(entry.heapIndex == DeadlineEntry.notScheduled, "Petal: a deadline was scheduled twice")
            precondition(!locked.pointee.stopping, "Petal: a deadline was scheduled on a stopped scheduler")
            locked.pointee.heap.insert(entry)
            // A manual clock's deadlines wait for `advance(to:)`.
            if manual { return nil }
            if timer != nil {
                guard let refusal = armTimer(for: entry.deadline) else { return nil }
                locked.pointee.heap.remove(at: entry.heapIndex)
                return refusal
            }
            if !locked.pointee.threadStarted {
                let status = startTimerThread()
                guard status == 0 else {
                    locked.pointee.heap.remove(at: entry.heapIndex)
                    return TimerUnavailableError(code: status)
                }
                locked.pointee.threadStarted = true
            } else if entry.heapIndex == 0 {
                // The timer thread sleeps until a later deadline (or for ever): wake it to re-arm.
                monitor.signal()
            }
            return nil
        }
        if let failure { throw failure }
    }

    /// Removes `entry` if its deadline has not been taken by the timer thread yet.
    ///
    /// - Returns: `true` if this call removed it: its action will never run. `false` if it was
    ///   no longer scheduled: the timer thread took it (its action runs or has run) or it was
    ///   already cancelled.
    @usableFromInline
    func cancel(_ entry: DeadlineEntry) -> Bool {
        withLock {
            guard entry.heapIndex != DeadlineEntry.notScheduled else { return false }
            assert(locked.pointee.heap.holds(entry), "Petal: a deadline entry lost track of its heap index")
            locked.pointee.heap.remove(at: entry.heapIndex)
            // No signal: if this was the earliest, the timer thread (or the caller's timer) wakes
            // for it, finds nothing due, and sleeps again until the new earliest.
            return true
        }
    }

    /// Moves a manual clock to `target` (never backwards), running every action due by then on
    /// this thread, earliest first, each with the clock at its own deadline. An action that
    /// schedules another deadline within the window (a retry's next wait) sees it run in the
    /// same call.
    func advance(to target: ContinuousClock.Instant) {
        while true {
            let due: (@Sendable () -> Void)? = withLock {
                guard let now = manualNow else { preconditionFailure("Petal: only a manual clock can be advanced") }
                guard let first = locked.pointee.heap.first, first.deadline <= target else {
                    manualNow = Swift.max(now, target)
                    return nil
                }
                manualNow = Swift.max(now, first.deadline)
                let action = first.action.take()
                locked.pointee.heap.remove(at: 0)
                return action
            }
            // Outside the lock, as on the timer thread: actions resolve futures whose callbacks
            // may schedule or cancel deadlines.
            guard let due else { return }
            due()
        }
    }

    /// Before `fork()`: holds the lock across it.
    func prepareForFork() { monitor.lock() }

    /// In the parent after `fork()`: nothing changed.
    func resumeInParentAfterFork() { monitor.unlock() }

    /// In a child after `fork()` (lock held since prepare): the timer thread did not come along,
    /// so the next schedule starts one, and one starts now if deadlines are pending (a start
    /// that fails is retried by the next schedule).
    func restartInChildAfterFork() {
        locked.pointee.threadStarted = false
        if locked.pointee.heap.count > 0, startTimerThread() == 0 { locked.pointee.threadStarted = true }
        monitor.unlock()
    }

    /// Stops the timer thread of a private scheduler (tests): pending entries never run, and
    /// nothing may be scheduled afterwards. Never called on ``shared``.
    func stop() {
        withLock {
            locked.pointee.stopping = true
            monitor.broadcast()  // every timer thread (a simulated fork leaves two)
        }
    }

    // MARK: The timer thread

    /// Starts the timer thread (lock held); returns `pthread_create`'s status.
    private func startTimerThread() -> Int32 {
        // The thread holds the scheduler for as long as it runs (for ever, unless stopped).
        startThread { self.runTimerThread() }
    }

    /// The timer thread's loop: sleep until the earliest deadline, run what is due, repeat.
    private func runTimerThread() {
        nameCurrentThread("petal-timer")
        var due: [(deadline: ContinuousClock.Instant, action: @Sendable () -> Void)] = []
        monitor.lock()
        while !locked.pointee.stopping {
            guard let earliest = locked.pointee.heap.first else {
                monitor.wait()
                continue
            }
            let now = ContinuousClock.now
            guard earliest.deadline <= now else {
                // At most longestSleep: the clocks drift (see there).
                monitor.wait(for: min(now.duration(to: earliest.deadline), Self.longestSleep))
                continue
            }
            while let first = locked.pointee.heap.first, first.deadline <= now {
                due.append((first.deadline, first.action.take().unsafelyUnwrapped))
                locked.pointee.heap.remove(at: 0)
            }
            // Outside the lock: actions resolve futures, whose inline callbacks may schedule or
            // cancel other timeouts.
            monitor.unlock()
            for (deadline, action) in due {
                // Measured as each action starts: a slow inline callback earlier in the batch (or
                // a starved thread) makes the ones after it late, and that is worth knowing.
                PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: .now)
                action()
            }
            due.removeAll(keepingCapacity: true)
            monitor.lock()
        }
        monitor.unlock()
    }
}
