import Petal
import Synchronization

/// The value the soak's promises carry, and what its errors hold.
///
/// It counts its live instances so that a round can prove Petal let go of every value, error and
/// captured object it was handed. The count is exact, and, unlike the heap, it is not disturbed
/// by other tests running in the same process: only the soak makes tokens.
final class SoakToken: Sendable {
    /// Tokens alive now. Relaxed: it is read only after the threads that touch it are joined.
    static let live = Atomic<Int>(0)

    /// Which resolution made this token; see ``SoakCode``.
    let code: Int

    init(_ code: Int) {
        self.code = code
        SoakToken.live.add(1, ordering: .relaxed)
    }

    deinit {
        SoakToken.live.subtract(1, ordering: .relaxed)
    }
}

/// The error the soak rejects and cancels with. Its token makes the error's own lifetime
/// visible in ``SoakToken/live``.
struct SoakError: Error {
    let token: SoakToken

    init(_ code: Int) {
        token = SoakToken(code)
    }
}

/// An outcome as one number, so that outcomes seen on different threads compare with `==`.
///
/// A resolution made by the soak has a unique code (its scenario's index times eight, plus the
/// role or input that made it); the outcome's number is that code times four plus the kind, so a
/// value, a rejection and a cancellation with the same code differ. Outcomes the soak did not make
/// itself get negative numbers.
enum SoakCode {
    static let abandoned = -2
    static let cancelledWithoutError = -3
    static let foreignError = -4

    static func fulfilled(_ code: Int) -> Int { code * 4 }
    static func rejected(_ code: Int) -> Int { code * 4 + 1 }
    static func cancelled(_ code: Int) -> Int { code * 4 + 2 }

    static func of(_ outcome: Outcome<SoakToken>) -> Int {
        if case .fulfilled(let token) = outcome { return fulfilled(token.code) }
        return failure(outcome.isRejected, outcome.error)
    }

    static func of(_ outcome: Outcome<Int>) -> Int {
        if case .fulfilled(let value) = outcome { return fulfilled(value) }
        return failure(outcome.isRejected, outcome.error)
    }

    /// The number of a cancellation carrying `error` (as a combinator or chain passes it down).
    static func cancelled(with error: (any Error)?) -> Int {
        failure(false, error)
    }

    private static func failure(_ rejected: Bool, _ error: (any Error)?) -> Int {
        switch error {
        case let error as SoakError: return rejected ? Self.rejected(error.token.code) : cancelled(error.token.code)
        case is AbandonedPromiseError: return abandoned
        case nil: return cancelledWithoutError
        default: return foreignError
        }
    }
}

/// What one scenario's callbacks and resolvers report, from any thread.
///
/// Each callback owns one bit, so "every callback ran exactly once" is checked per callback: a
/// plain count could not tell one callback that ran twice from another that never ran.
final class SoakRecord: Sendable {
    private let ranBits = Atomic<UInt64>(0)
    private let repeats = Atomic<Int>(0)
    private let disorders = Atomic<Int>(0)
    private let wins = Atomic<Int>(0)
    private let winner = Atomic<Int>(.min)
    private let seen = Atomic<Int>(.min)
    private let wrongs = Atomic<Int>(0)

    /// Callback `bit` ran. Acquiring and releasing, so that a later callback that finds this
    /// bit set has also seen everything this one did.
    func ran(_ bit: Int) {
        let old = ranBits.bitwiseOr(1 << bit, ordering: .acquiringAndReleasing).oldValue
        if old & (1 << bit) != 0 { repeats.add(1, ordering: .relaxed) }
    }

    /// Callback `bit` ran; callback `earlier` was subscribed before it on the same future by the
    /// same thread, or is an earlier step of its chain, so it must have run already.
    func ran(_ bit: Int, after earlier: Int) {
        if !hasRun(earlier) { disorders.add(1, ordering: .relaxed) }
        ran(bit)
    }

    func hasRun(_ bit: Int) -> Bool {
        hasRun(all: 1 << bit)
    }

    func hasRun(all mask: UInt64) -> Bool {
        ranBits.load(ordering: .acquiring) & mask == mask
    }

    /// A resolution attempt won; `outcome` is the number (``SoakCode``) of what it resolved with.
    func won(_ outcome: Int) {
        wins.add(1, ordering: .relaxed)
        winner.store(outcome, ordering: .relaxed)
    }

    /// A callback saw `outcome`: every callback of one future must see the same one.
    func saw(_ outcome: Int) {
        let (first, original) = seen.compareExchange(expected: .min, desired: outcome, ordering: .relaxed)
        if !first && original != outcome { wrongs.add(1, ordering: .relaxed) }
    }

    /// Something was seen that the API rules out (a wrong value or error, a late callback).
    func wrong() {
        wrongs.add(1, ordering: .relaxed)
    }

    /// Adds this record to `tally`: the callbacks in `expected` must each have run exactly once
    /// and in order, nothing wrong seen; for a race, exactly one resolution won and every
    /// callback that reported an outcome saw the winner's.
    func check(
        expecting expected: UInt64, race: Bool, into tally: inout SoakTally, _ label: @autoclosure () -> String
    ) {
        let bits = ranBits.load(ordering: .acquiring)
        let missing = expected & ~bits
        let unexpected = bits & ~expected
        tally.callbacksExpected += expected.nonzeroBitCount
        tally.callbacksRan += (bits & expected).nonzeroBitCount
        tally.unexpectedCallbacks += unexpected.nonzeroBitCount
        tally.repeatedCallbacks += repeats.load(ordering: .relaxed)
        tally.disorders += disorders.load(ordering: .relaxed)
        tally.wrongOutcomes += wrongs.load(ordering: .relaxed)
        var healthy =
            missing == 0 && unexpected == 0 && repeats.load(ordering: .relaxed) == 0
            && disorders.load(ordering: .relaxed) == 0 && wrongs.load(ordering: .relaxed) == 0
        if race {
            let wins = wins.load(ordering: .relaxed)
            let seen = seen.load(ordering: .relaxed)
            tally.races += 1
            if wins == 1 { tally.racesWithOneWinner += 1 }
            let agrees = seen == .min || seen == winner.load(ordering: .relaxed)
            if !agrees { tally.wrongOutcomes += 1 }
            healthy = healthy && wins == 1 && agrees
        }
        if !healthy {
            let raceText =
                race
                ? ", \(wins.load(ordering: .relaxed)) wins, winner \(winner.load(ordering: .relaxed)), "
                    + "seen \(seen.load(ordering: .relaxed)) (Int.min: none)" : ""
            tally.problem(
                "\(label()): ran \(String(bits, radix: 2)), expected \(String(expected, radix: 2)), "
                    + "\(repeats.load(ordering: .relaxed)) repeats, \(disorders.load(ordering: .relaxed)) out of order, "
                    + "\(wrongs.load(ordering: .relaxed)) wrong" + raceText
            )
        }
    }
}

/// One round's counts, summed over its scenarios and threads, and the first few problems in
/// words.
struct SoakTally {
    /// Public API calls made, counted where they were made.
    var operations = 0
    var callbacksExpected = 0
    var callbacksRan = 0
    /// Callbacks that ran although they never should (a `then` after a failure, say).
    var unexpectedCallbacks = 0
    var repeatedCallbacks = 0
    var disorders = 0
    var races = 0
    var racesWithOneWinner = 0
    var wrongOutcomes = 0
    /// Waits with a short timeout that returned before the future resolved: timing decides how
    /// many, so it is reported, never checked.
    var timedOutWaits = 0
    private(set) var problems: [String] = []

    mutating func problem(_ text: @autoclosure () -> String) {
        if problems.count < 5 { problems.append(text()) }
    }

    mutating func add(_ other: SoakTally) {
        operations += other.operations
        callbacksExpected += other.callbacksExpected
        callbacksRan += other.callbacksRan
        unexpectedCallbacks += other.unexpectedCallbacks
        repeatedCallbacks += other.repeatedCallbacks
        disorders += other.disorders
        races += other.races
        racesWithOneWinner += other.racesWithOneWinner
        wrongOutcomes += other.wrongOutcomes
        timedOutWaits += other.timedOutWaits
        for text in other.problems { problem(text) }
    }
}
