import CPetal

/// The atomic word of a ``CombinatorState``: two counts side by side, then three flags.
///
/// Why it is a type of its own: a combinator's correctness is all in this word (one result,
/// resolved once; one release of the tail; no write after it), and every move of it is a pure
/// function here, from the word an atomic operation saw to the word it makes and the
/// ``Duty`` that falls to its caller. ``CombinatorState`` applies these functions with the C
/// atomics and does the duty; `CombinatorWordTests` checks each one bit for bit and every
/// interleaving of a few contributors and deciders over them; `Tests/Model/petal_combinator.pml`
/// model-checks the same moves with spin.
///
/// ```
///   bits 0 ..< k    REMAINING      contributions still expected (k = 30 on 64-bit platforms,
///                                  14 on 32-bit ones)
///   bits k ..< 2k   WRITING        contributors between their enter and their leave
///   bit 2k          DECIDED        a decider won: no contributor may enter any more
///   bit 2k + 1      RESULT_TAKEN   the combined storage was taken out of the header
///   bit 2k + 2      TAIL_RELEASED  the tail was deinitialized: moved out, or released
///   bit 2k + 3      unused
/// ```
///
/// The moves, who makes each, and the atomic that applies it:
///
/// ```
///   enter    a contributor, before writing   CAS loop, no ordering   WRITING + 1;
///                                                                    refused once DECIDED
///   leave    the contributor, after writing  fetch-add, FULL         REMAINING - 1 and
///                                                                    WRITING - 1 at once
///   decide   a decider                       CAS loop, FULL          DECIDED; refused once
///                                                                    DECIDED
///   retire   whoever had a duty, once done   fetch-add, RELEASE      RESULT_TAKEN and/or
///                                                                    TAIL_RELEASED
///   deinit   the last reference              load, ACQUIRE           (reads TAIL_RELEASED)
///
///   leave:   DECIDED, and WRITING reaches 0               → releaseTail
///            not DECIDED, and REMAINING reaches 0         → complete
///   decide:  DECIDED, or REMAINING 0 (completed)          → refused
///            WRITING 0                                    → resolveAndReleaseTail
///            WRITING above 0                              → resolve (the last writer to
///                                                            leave releases the tail)
///   deinit:  TAIL_RELEASED clear                          → releaseTail (no retire: the
///                                                            state is going away)
/// ```
///
/// Why each duty falls to exactly one party:
/// - **One result.** REMAINING starts at the number of inputs that may contribute, and only
///   one leave can take it to 0 (`firstResolved` counts one contribution that never comes: all
///   its inputs decide, and nothing ever completes). A decider need not be an input: a
///   cancellation request that reaches the combined future decides it too, while every input
///   may still contribute. So the two exclude each other through the word alone: a leave
///   completes only if the word it left is not DECIDED, and a decision is refused once
///   REMAINING is 0, the mark of a completion. A decision is one CAS that only the first
///   decider wins. The completer and the winning decider exclude each other, and each is alone
///   of its kind. (Before the request's decider was counted here, a request that decided while
///   the last inputs wrote let the last leave complete too: two parties took the result, and
///   the second dereferenced the empty field.)
/// - **One release of the tail.** WRITING never exceeds REMAINING (a writer is counted in both
///   until its leave), so the completer's leave also ends the writing. After a decision no
///   contributor can enter, so WRITING only falls: if it was 0 at the decision, the decider
///   releases; otherwise exactly one leave takes it to 0 with DECIDED set, and that contributor
///   releases. Without completion or decision (an input never resolves), nobody has released
///   and `deinit` does.
/// - **No write after the release.** A contributor writes between its enter and its leave,
///   counted in WRITING the whole time, and the tail is released only when WRITING is 0 with
///   DECIDED set (which refuses later enters) or moved out when REMAINING is 0 (no contributor
///   is left to enter).
@usableFromInline
struct CombinatorWord: Equatable {
    @usableFromInline
    let bits: petal_word

    @inlinable
    init(bits: petal_word) {
        self.bits = bits
    }

    /// A fresh word expecting `remaining` contributions.
    @inlinable
    init(remaining: Int) {
        bits = petal_word(remaining)
    }

    /// The fresh word of a combinator whose inputs make `contributions` contributions: that
    /// count, or for a combinator whose inputs only decide (`firstResolved`), one contribution
    /// that never comes. So REMAINING is 0 only once a completer's leave made it so, and a
    /// decision can tell a completed word from a fresh one.
    @inlinable
    init(expecting contributions: Int) {
        self.init(remaining: Swift.max(contributions, 1))
    }

    // MARK: Layout

    /// The width of each count.
    @inlinable
    static var countWidth: Int { (petal_word.bitWidth - 4) / 2 }

    /// The most inputs a combinator can count.
    @inlinable
    static var maximumCount: Int { (1 << countWidth) - 1 }

    /// One contributor writing.
    @inlinable
    static var writer: petal_word { 1 << countWidth }

    /// What a leave adds: one writer fewer and one contribution fewer, in one fetch-add. Neither
    /// count borrows from the other: the leaving contributor is counted in both.
    @inlinable
    static var leaving: petal_word { 0 &- (writer + 1) }

    /// DECIDED.
    @inlinable
    static var decided: petal_word { 1 << (2 * countWidth) }

    /// RESULT_TAKEN.
    @inlinable
    static var resultTaken: petal_word { 1 << (2 * countWidth + 1) }

    /// TAIL_RELEASED.
    @inlinable
    static var tailReleased: petal_word { 1 << (2 * countWidth + 2) }

    // MARK: Queries

    /// REMAINING: contributions still expected.
    @inlinable
    var remaining: Int { Int(bits & petal_word(Self.maximumCount)) }

    /// WRITING: contributors between their enter and their leave.
    @inlinable
    var writing: Int { Int((bits >> Self.countWidth) & petal_word(Self.maximumCount)) }

    /// Whether a decider won.
    @inlinable
    var isDecided: Bool { bits & Self.decided != 0 }

    /// Whether the combined storage was taken out of the header.
    @inlinable
    var isResultTaken: Bool { bits & Self.resultTaken != 0 }

    /// Whether the tail was deinitialized.
    @inlinable
    var isTailReleased: Bool { bits & Self.tailReleased != 0 }

    // MARK: Moves

    /// What falls to the caller of a move, once the word it made is in place.
    @usableFromInline
    enum Duty: Hashable {
        /// Nothing: another party finishes.
        case nothing
        /// The contributions are complete: build the result's outcome from the tail, moving
        /// every element out, then take the result and resolve it.
        case complete
        /// A decision came while this contributor wrote, and it left last: deinitialize the
        /// tail.
        case releaseTail
        /// This decider won while contributors still write: take the result and resolve it;
        /// the last of them to leave releases the tail.
        case resolve
        /// This decider won and nobody writes: take the result and resolve it, and
        /// deinitialize the tail.
        case resolveAndReleaseTail

        /// The flags the caller sets once it has done this duty (what ``retire(_:)`` adds).
        @inlinable
        var retiredBits: petal_word {
            switch self {
            case .nothing: 0
            case .complete, .resolveAndReleaseTail: CombinatorWord.resultTaken | CombinatorWord.tailReleased
            case .releaseTail: CombinatorWord.tailReleased
            case .resolve: CombinatorWord.resultTaken
            }
        }
    }

    /// A move's outcome: the word it makes and the duty that falls to its caller.
    @usableFromInline
    struct Step: Equatable {
        /// The word the move writes.
        @usableFromInline
        let word: CombinatorWord
        /// What the caller must do next.
        @usableFromInline
        let duty: Duty

        @inlinable
        init(word: CombinatorWord, duty: Duty) {
            self.word = word
            self.duty = duty
        }
    }

    /// The word a contributor's enter makes of this one (one more writer), or `nil` once the
    /// result is decided: the contribution is then dropped unwritten.
    @inlinable
    func enter() -> CombinatorWord? {
        isDecided ? nil : CombinatorWord(bits: bits &+ Self.writer)
    }

    /// A contributor's leave from this word, the one its fetch-add replaced: one writer and one
    /// contribution fewer. The leave that takes REMAINING to 0 completes; after a decision, the
    /// one that takes WRITING to 0 releases the tail.
    @inlinable
    func leave() -> Step {
        let left = CombinatorWord(bits: bits &+ Self.leaving)
        // Decided first, then completion: a request's decider is no input, so every input may
        // still contribute after it; the last of them then only releases the tail.
        if left.isDecided { return Step(word: left, duty: left.writing == 0 ? .releaseTail : .nothing) }
        if left.remaining == 0 { return Step(word: left, duty: .complete) }
        return Step(word: left, duty: .nothing)
    }

    /// A decider's move from this word: DECIDED, and the result to resolve; the tail too if
    /// nobody writes it. `nil` if another decider won already (the decision changes nothing).
    @inlinable
    func decide() -> Step? {
        // REMAINING 0 is a completion (see ``init(expecting:)``): the completer owns the result.
        if isDecided || remaining == 0 { return nil }
        let decided = CombinatorWord(bits: bits | Self.decided)
        return Step(word: decided, duty: writing == 0 ? .resolveAndReleaseTail : .resolve)
    }

    /// The word after the caller of a move has done `duty` and set its flags (a fetch-add of
    /// ``Duty/retiredBits``: each flag is set once, so adding it is setting it).
    @inlinable
    func retire(_ duty: Duty) -> CombinatorWord {
        CombinatorWord(bits: bits &+ duty.retiredBits)
    }

    /// What `deinit` must do, given the word it loads: release the tail if nobody did.
    @inlinable
    var deinitDuty: Duty {
        isTailReleased ? .nothing : .releaseTail
    }
}
