import CPetal
import Testing

@testable import Petal

// The combinator word's moves, on one thread and on values only: every move bit for bit over
// every small word, the guards, and then every interleaving of a few contributors and deciders
// replayed over the same pure functions that CombinatorState applies with its atomics.

/// A word spelled out field by field, with the layout written here independently of
/// `CombinatorWord`'s own constants: REMAINING in bits 0 ..< k, WRITING in k ..< 2k, then
/// DECIDED, RESULT_TAKEN and TAIL_RELEASED.
private func word(
    remaining: Int, writing: Int = 0, decided: Bool = false, resultTaken: Bool = false,
    tailReleased: Bool = false
) -> CombinatorWord {
    let k = (petal_word.bitWidth - 4) / 2
    var bits = petal_word(remaining) | petal_word(writing) << k
    if decided { bits |= 1 << (2 * k) }
    if resultTaken { bits |= 1 << (2 * k + 1) }
    if tailReleased { bits |= 1 << (2 * k + 2) }
    return CombinatorWord(bits: bits)
}

/// Every word a combinator of up to `inputs` counted inputs can hold. WRITING never exceeds
/// REMAINING (a writer counts in both); after a decision some counted input decided and never
/// leaves, so REMAINING stays above WRITING (or both are 0: `firstResolved` counts nobody).
/// The completer sets RESULT_TAKEN and TAIL_RELEASED together; after a decision, the decider and
/// the last writer set them one at a time.
private func reachableWords(inputs: Int) -> [CombinatorWord] {
    var words: [CombinatorWord] = []
    for remaining in 0...inputs {
        for writing in 0...remaining {
            for decided in [false, true] {
                if decided && remaining > 0 && writing == remaining { continue }
                // A decision is refused once REMAINING is 0, which only a completion makes.
                if decided && remaining == 0 { continue }
                let flags: [(Bool, Bool)]
                if decided {
                    flags = [(false, false), (true, false), (false, true), (true, true)]
                } else if remaining == 0 {
                    flags = [(false, false), (true, true)]
                } else {
                    flags = [(false, false)]
                }
                for (resultTaken, tailReleased) in flags {
                    words.append(
                        word(
                            remaining: remaining, writing: writing, decided: decided, resultTaken: resultTaken,
                            tailReleased: tailReleased
                        )
                    )
                }
            }
        }
    }
    return words
}

/// A move's expected outcome.
private func step(_ word: CombinatorWord, _ duty: CombinatorWord.Duty) -> CombinatorWord.Step {
    CombinatorWord.Step(word: word, duty: duty)
}

/// A word's fields, for failure messages.
private func spelled(_ word: CombinatorWord) -> String {
    var fields = ["REMAINING \(word.remaining)", "WRITING \(word.writing)"]
    if word.isDecided { fields.append("DECIDED") }
    if word.isResultTaken { fields.append("RESULT_TAKEN") }
    if word.isTailReleased { fields.append("TAIL_RELEASED") }
    return fields.joined(separator: ", ")
}

@Suite("Combinators: the combinator word, move by move")
struct CombinatorWordTests {
    @Test("the counts and the flags sit side by side, and nothing overlaps")
    func layout() {
        let k = CombinatorWord.countWidth
        #expect(k == (petal_word.bitWidth - 4) / 2)
        if petal_word.bitWidth == 64 {
            #expect(k == 30)
            #expect(CombinatorWord.decided == 1 << 60)
            #expect(CombinatorWord.resultTaken == 1 << 61)
            #expect(CombinatorWord.tailReleased == 1 << 62)
        }
        #expect(CombinatorWord.maximumCount == (1 << k) - 1)
        #expect(CombinatorWord.writer == 1 << k)
        let remainingMask = petal_word(CombinatorWord.maximumCount)
        let writingMask = remainingMask << k
        let fields = [
            remainingMask, writingMask, CombinatorWord.decided, CombinatorWord.resultTaken,
            CombinatorWord.tailReleased,
        ]
        for (index, field) in fields.enumerated() {
            for other in fields[(index + 1)...] { #expect(field & other == 0) }
        }
        // Together they use every bit but the sign bit: a word is never negative.
        #expect(fields.reduce(0, |) == petal_word.max)
    }

    @Test("a fresh word expects its contributions and holds nothing else")
    func freshWord() {
        for remaining in [0, 1, 2, 7, CombinatorWord.maximumCount] {
            let fresh = CombinatorWord(remaining: remaining)
            #expect(fresh == word(remaining: remaining))
            #expect(fresh.remaining == remaining)
            #expect(fresh.writing == 0)
            #expect(!fresh.isDecided && !fresh.isResultTaken && !fresh.isTailReleased)
        }
    }

    @Test("enter adds one writer and changes nothing else")
    func enterAddsAWriter() {
        for old in reachableWords(inputs: 4) where !old.isDecided && old.writing < old.remaining {
            let entered = old.enter()
            #expect(entered?.bits == old.bits + CombinatorWord.writer)
            #expect(entered?.writing == old.writing + 1)
            #expect(entered?.remaining == old.remaining)
            #expect(entered?.isResultTaken == old.isResultTaken)
            #expect(entered?.isTailReleased == old.isTailReleased)
            #expect(entered?.isDecided == false)
        }
    }

    @Test("no contributor enters once the result is decided")
    func noEnterAfterDecision() {
        for old in reachableWords(inputs: 4) where old.isDecided {
            #expect(old.enter() == nil, "entered \(spelled(old))")
        }
    }

    @Test("leave takes one writer and one contribution off at once, bit for bit what its fetch-add adds")
    func leaveTakesBothCounts() {
        for old in reachableWords(inputs: 4) where old.writing > 0 {
            let step = old.leave()
            #expect(step.word.bits == old.bits &+ CombinatorWord.leaving)
            #expect(
                step.word
                    == word(
                        remaining: old.remaining - 1, writing: old.writing - 1, decided: old.isDecided,
                        resultTaken: old.isResultTaken, tailReleased: old.isTailReleased
                    )
            )
        }
        // The largest counts leave without a borrow across the fields.
        let full = word(remaining: CombinatorWord.maximumCount, writing: CombinatorWord.maximumCount)
        #expect(
            full.leave().word
                == word(remaining: CombinatorWord.maximumCount - 1, writing: CombinatorWord.maximumCount - 1)
        )
    }

    @Test("the completer is the leave that takes REMAINING to zero, and then nobody writes")
    func completerReachesZero() {
        for old in reachableWords(inputs: 4) where old.writing > 0 && !old.isDecided {
            let step = old.leave()
            if old.remaining == 1 {
                #expect(step.duty == .complete)
                #expect(step.word.remaining == 0 && step.word.writing == 0)
            } else {
                #expect(step.duty == .nothing, "\(spelled(old)) left \(step.duty)")
                #expect(step.word.remaining > 0)
            }
        }
        // WRITING never exceeds REMAINING, so the leave that completes always ends the writing.
        #expect(word(remaining: 1, writing: 1).leave() == step(word(remaining: 0), .complete))
    }

    @Test("after a decision, the leave that takes WRITING to zero releases the tail, and earlier leaves do nothing")
    func lastWriterReleasesAfterDecision() {
        for old in reachableWords(inputs: 4) where old.writing > 0 && old.isDecided {
            let step = old.leave()
            #expect(step.duty == (old.writing == 1 ? .releaseTail : .nothing), "\(spelled(old))")
        }
        #expect(
            word(remaining: 3, writing: 1, decided: true, resultTaken: true).leave()
                == step(word(remaining: 2, decided: true, resultTaken: true), .releaseTail)
        )
        #expect(
            word(remaining: 3, writing: 2, decided: true).leave()
                == step(word(remaining: 2, writing: 1, decided: true), .nothing)
        )
    }

    @Test("decide sets DECIDED and nothing else, and releases the tail only when nobody writes")
    func decideSetsDecided() {
        for old in reachableWords(inputs: 4) where !old.isDecided && old.remaining > 0 {
            guard let step = old.decide() else {
                Issue.record("decide refused \(spelled(old))")
                continue
            }
            #expect(step.word.bits == old.bits | CombinatorWord.decided)
            #expect(step.word.bits == old.bits + CombinatorWord.decided)
            #expect(step.duty == (old.writing == 0 ? .resolveAndReleaseTail : .resolve))
        }
        #expect(
            word(remaining: 3, writing: 2).decide()
                == step(word(remaining: 3, writing: 2, decided: true), .resolve)
        )
        #expect(
            word(remaining: 3).decide() == step(word(remaining: 3, decided: true), .resolveAndReleaseTail)
        )
        // firstResolved: one contribution expected that never comes, nobody ever writes.
        #expect(
            CombinatorWord(expecting: 0).decide()
                == step(word(remaining: 1, decided: true), .resolveAndReleaseTail)
        )
    }

    @Test("a completed word refuses every decision: the completer owns the result")
    func noDecisionAfterCompletion() {
        for old in reachableWords(inputs: 4) where old.remaining == 0 {
            #expect(old.decide() == nil, "decided a completed word: \(spelled(old))")
        }
        #expect(CombinatorWord(expecting: 0) == word(remaining: 1))
        #expect(CombinatorWord(expecting: 3) == word(remaining: 3))
    }

    @Test("after a request's decision, the leave that takes REMAINING to zero only releases the tail")
    func noCompletionAfterDecision() {
        // A request decides while the last contributor writes: REMAINING reaches 0 decided.
        #expect(
            word(remaining: 1, writing: 1, decided: true, resultTaken: true).leave()
                == step(word(remaining: 0, decided: true, resultTaken: true), .releaseTail)
        )
        #expect(
            word(remaining: 2, writing: 2, decided: true).leave()
                == step(word(remaining: 1, writing: 1, decided: true), .nothing)
        )
    }

    @Test("only the first decider wins")
    func onlyTheFirstDeciderWins() {
        for old in reachableWords(inputs: 4) where old.isDecided {
            #expect(old.decide() == nil, "decided again: \(spelled(old))")
        }
        let first = CombinatorWord(remaining: 2).decide()
        #expect(first != nil)
        #expect(first?.word.decide() == nil)
    }

    @Test("each duty retires exactly its flags, and adding them sets them")
    func retireSetsTheDutysFlags() {
        let flags: [CombinatorWord.Duty: petal_word] = [
            .nothing: 0,
            .complete: CombinatorWord.resultTaken | CombinatorWord.tailReleased,
            .releaseTail: CombinatorWord.tailReleased,
            .resolve: CombinatorWord.resultTaken,
            .resolveAndReleaseTail: CombinatorWord.resultTaken | CombinatorWord.tailReleased,
        ]
        for (duty, bits) in flags {
            #expect(duty.retiredBits == bits)
            for old in reachableWords(inputs: 3) where old.bits & bits == 0 {
                #expect(old.retire(duty).bits == old.bits | bits)
                #expect(old.retire(duty).remaining == old.remaining)
                #expect(old.retire(duty).writing == old.writing)
            }
        }
        // The completer's and the lone decider's single add is the two moves, one after the other.
        let decided = word(remaining: 2, decided: true)
        #expect(decided.retire(.resolveAndReleaseTail) == decided.retire(.resolve).retire(.releaseTail))
    }

    @Test("deinit releases the tail only if nobody did")
    func deinitReleasesWhatIsLeft() {
        for old in reachableWords(inputs: 3) where old.writing == 0 {
            #expect(old.deinitDuty == (old.isTailReleased ? .nothing : .releaseTail))
        }
        #expect(word(remaining: 2).deinitDuty == .releaseTail)
        #expect(word(remaining: 0, resultTaken: true, tailReleased: true).deinitDuty == .nothing)
        #expect(word(remaining: 1, decided: true, resultTaken: true).deinitDuty == .releaseTail)
    }

    @Test("the counts reach the most inputs a combinator takes without touching the flags")
    func countsReachTheMaximum() {
        let most = CombinatorWord.maximumCount
        #expect(word(remaining: most, writing: most - 1).enter() == word(remaining: most, writing: most))
        #expect(
            word(remaining: most, writing: most).leave()
                == step(word(remaining: most - 1, writing: most - 1), .nothing)
        )
        #expect(
            word(remaining: most, writing: most - 1, decided: true).leave()
                == step(word(remaining: most - 1, writing: most - 2, decided: true), .nothing)
        )
        #expect(word(remaining: 0).retire(.complete) == word(remaining: 0, resultTaken: true, tailReleased: true))
    }
}

// MARK: Every interleaving

/// What a simulated combinator looks like: how its inputs resolve.
struct CombinatorShape: Hashable, Sendable, CustomTestStringConvertible {
    /// Inputs that contribute.
    let contributors: Int
    /// Inputs that decide.
    let deciders: Int
    /// Inputs that never resolve: their callbacks are dropped unrun.
    let silent: Int
    /// Whether every input counts in REMAINING (`fulfillingWhen`, `firstFulfilled`,
    /// `allResolved`) or none does (`firstResolved`, whose inputs all decide).
    let counted: Bool
    /// Whether a cancellation request decides too: a decider that is no input, counted nowhere,
    /// so every input may still contribute after it.
    var requester = false

    var inputs: Int { contributors + deciders + silent }

    var testDescription: String {
        "\(counted ? "" : "firstResolved: ")\(contributors) contributors, \(deciders) deciders, \(silent) silent"
            + (requester ? ", a request" : "")
    }
}

/// The moves a simulation applies: the word's own, or a seeded bug's.
struct CombinatorMoves: Sendable {
    var enter: @Sendable (CombinatorWord) -> CombinatorWord? = { $0.enter() }
    var leave: @Sendable (CombinatorWord) -> CombinatorWord.Step = { $0.leave() }
    var decide: @Sendable (CombinatorWord) -> CombinatorWord.Step? = { $0.decide() }
}

/// Who deinitialized the tail, for counting orders by releaser.
private enum Releaser: Hashable, CaseIterable {
    case completer, decider, lastWriter, deinitializer
}

/// Where one input is: the next thing it does.
private enum Stage: Hashable {
    case enter, write, leave, decide
    /// Doing its duty: the tail and the result.
    case work(CombinatorWord.Duty)
    /// Setting the duty's flags.
    case retire(CombinatorWord.Duty)
    case done
}

/// How the combined future was resolved.
private enum Resolution: Hashable {
    case completed
    case decided(by: Int)
}

/// One moment of a simulated combinator: the word, every input's stage, and what a real one
/// would have done to its tail and its result so far.
private struct Simulation: Hashable {
    var bits: petal_word
    var stages: [Stage]
    /// Per input: whether its tail element holds a contribution.
    var written: [Bool]
    var tailReleases = 0
    var releaser: Releaser?
    var resultTakes = 0
    var resolutions: [Resolution] = []
    var winner: Int?
    var leaves = 0
    var refused = 0

    var word: CombinatorWord {
        get { CombinatorWord(bits: bits) }
        set { bits = newValue.bits }
    }

    init(_ shape: CombinatorShape) {
        bits = CombinatorWord(expecting: shape.counted ? shape.inputs : 0).bits
        // The request, if any, is the last party: a decider that is no input.
        stages =
            Array(repeating: .enter, count: shape.contributors) + Array(repeating: .decide, count: shape.deciders)
            + Array(repeating: .done, count: shape.silent) + (shape.requester ? [.decide] : [])
        written = Array(repeating: false, count: shape.inputs) + (shape.requester ? [true] : [])
    }

    /// Whether some contributor is between its enter and its leave.
    var someoneWrites: Bool {
        stages.contains { $0 == .write || $0 == .leave }
    }

    mutating func releaseTail(by releaser: Releaser, _ violations: inout Set<String>) {
        if tailReleases > 0 { violations.insert("the tail released twice (by \(releaser))") }
        if someoneWrites { violations.insert("the tail released by \(releaser) while a contributor writes") }
        tailReleases += 1
        self.releaser = releaser
    }

    mutating func takeResult(_ violations: inout Set<String>) {
        if resultTakes > 0 { violations.insert("the result taken twice") }
        resultTakes += 1
    }

    /// Input `input` makes its next move.
    mutating func step(_ input: Int, moves: CombinatorMoves, _ violations: inout Set<String>) {
        switch stages[input] {
        case .enter:
            if let entered = moves.enter(word) {
                word = entered
                stages[input] = .write
            } else {
                if !word.isDecided { violations.insert("an enter refused before any decision") }
                refused += 1
                stages[input] = .done
            }
        case .write:
            if tailReleases > 0 { violations.insert("a contribution written after the tail's release") }
            written[input] = true
            stages[input] = .leave
        case .leave:
            let step = moves.leave(word)
            word = step.word
            leaves += 1
            stages[input] = step.duty == .nothing ? .done : .work(step.duty)
        case .decide:
            if let step = moves.decide(word) {
                word = step.word
                if winner != nil { violations.insert("a second decider won") }
                winner = input
                stages[input] = .work(step.duty)
            } else {
                stages[input] = .done
            }
        case .work(let duty):
            switch duty {
            case .complete:
                if tailReleases > 0 { violations.insert("the completer read the tail after its release") }
                if written.contains(false) { violations.insert("completed without every contribution") }
                releaseTail(by: .completer, &violations)
                takeResult(&violations)
                resolutions.append(.completed)
            case .releaseTail:
                releaseTail(by: .lastWriter, &violations)
            case .resolve, .resolveAndReleaseTail:
                takeResult(&violations)
                if duty == .resolveAndReleaseTail { releaseTail(by: .decider, &violations) }
                resolutions.append(.decided(by: input))
            case .nothing:
                break
            }
            stages[input] = .retire(duty)
        case .retire(let duty):
            if word.bits & duty.retiredBits != 0 { violations.insert("a flag set twice (\(duty))") }
            word = word.retire(duty)
            stages[input] = .done
        case .done:
            break
        }
    }

    /// The last reference goes: `deinit`, then what must hold whatever the order was.
    mutating func finish(_ shape: CombinatorShape, _ violations: inout Set<String>) {
        let tailReleasedBefore = word.isTailReleased
        if word.deinitDuty == .releaseTail { releaseTail(by: .deinitializer, &violations) }
        if tailReleases != 1 { violations.insert("the tail released \(tailReleases) times") }
        if tailReleasedBefore != (releaser != .deinitializer) {
            violations.insert("TAIL_RELEASED disagrees with who released the tail")
        }
        if resolutions.count > 1 { violations.insert("the result resolved \(resolutions.count) times") }
        if resultTakes != resolutions.count { violations.insert("the result taken without being resolved") }
        if word.isResultTaken != (resultTakes == 1) { violations.insert("RESULT_TAKEN disagrees with the take") }
        if word.writing != 0 { violations.insert("WRITING left at \(word.writing)") }
        if shape.counted && word.remaining != shape.inputs - leaves {
            violations.insert("REMAINING is not the contributions still expected")
        }
        if refused > 0 && !word.isDecided { violations.insert("a contribution refused without a decision") }
        let expected: Resolution?
        if shape.requester && shape.deciders == 0 {
            // The request decides, or is refused because every input contributed first.
            let completes = shape.counted && shape.silent == 0 && shape.contributors > 0
            expected = winner.map { Resolution.decided(by: $0) } ?? (completes ? .completed : nil)
            if winner == nil && !completes { violations.insert("the request's decision refused") }
        } else if shape.deciders > 0 {
            expected = winner.map { Resolution.decided(by: $0) }
            if (winner ?? -1) < shape.contributors { violations.insert("no decider won") }
        } else if shape.counted && shape.silent == 0 && shape.contributors > 0 {
            expected = .completed
        } else {
            expected = nil
        }
        if resolutions.first != expected {
            let spell = { (resolution: Resolution?) in resolution.map { "\($0)" } ?? "never" }
            violations.insert("resolved \(spell(resolutions.first)), not \(spell(expected))")
        }
    }
}

/// What the orders from some moment on add up to.
private struct Tally {
    var orders: UInt64 = 0
    var byReleaser: [Releaser: UInt64] = [:]

    static func + (lhs: Tally, rhs: Tally) -> Tally {
        Tally(orders: lhs.orders + rhs.orders, byReleaser: lhs.byReleaser.merging(rhs.byReleaser, uniquingKeysWith: +))
    }
}

/// Explores every interleaving of a shape's inputs, each order a path through the moments a
/// simulation goes through. Every property checked is a property of a moment or of one move, so
/// visiting each reachable moment once and trying every move from it checks every order;
/// remembering the tally of each moment counts the orders without walking each one.
private final class Explorer {
    let shape: CombinatorShape
    let moves: CombinatorMoves
    var violations: Set<String> = []
    var memo: [Simulation: Tally] = [:]

    init(_ shape: CombinatorShape, moves: CombinatorMoves = CombinatorMoves()) {
        self.shape = shape
        self.moves = moves
    }

    func explore() -> Tally { explore(Simulation(shape)) }

    private func explore(_ moment: Simulation) -> Tally {
        if let known = memo[moment] { return known }
        var tally = Tally()
        var anyMove = false
        for input in moment.stages.indices where moment.stages[input] != .done {
            anyMove = true
            var next = moment
            next.step(input, moves: moves, &violations)
            tally = tally + explore(next)
        }
        if !anyMove {
            var end = moment
            end.finish(shape, &violations)
            tally = Tally(orders: 1, byReleaser: end.releaser.map { [$0: 1] } ?? [:])
        }
        memo[moment] = tally
        return tally
    }

    /// The orders counted one by one, without remembering moments: a check of the tally.
    func enumerate() -> UInt64 { enumerate(Simulation(shape)) }

    private func enumerate(_ moment: Simulation) -> UInt64 {
        var orders: UInt64 = 0
        for input in moment.stages.indices where moment.stages[input] != .done {
            var next = moment
            next.step(input, moves: moves, &violations)
            orders += enumerate(next)
        }
        return max(orders, 1)
    }
}

/// The shapes explored: up to three contributors and two deciders, with and without an input
/// that never resolves, and `firstResolved` with up to three deciders.
private let shapes: [CombinatorShape] = {
    var shapes: [CombinatorShape] = []
    for contributors in 0...3 {
        for deciders in 0...2 where contributors + deciders > 0 {
            for silent in 0...1 {
                shapes.append(
                    CombinatorShape(contributors: contributors, deciders: deciders, silent: silent, counted: true)
                )
            }
        }
    }
    for deciders in 1...3 {
        shapes.append(CombinatorShape(contributors: 0, deciders: deciders, silent: 0, counted: false))
    }
    // A cancellation request decides as well, without being an input.
    for contributors in 1...3 {
        for deciders in 0...1 {
            for silent in 0...1 {
                shapes.append(
                    CombinatorShape(
                        contributors: contributors, deciders: deciders, silent: silent, counted: true, requester: true)
                )
            }
        }
    }
    for deciders in 1...2 {
        shapes.append(CombinatorShape(contributors: 0, deciders: deciders, silent: 0, counted: false, requester: true))
    }
    return shapes
}()

@Suite("Combinators: the combinator word, every interleaving")
struct CombinatorWordInterleavingTests {
    @Test(
        "in every order of contributors and deciders, the result resolves once, right, and the tail is released once",
        arguments: shapes
    )
    func everyOrder(shape: CombinatorShape) {
        let explorer = Explorer(shape)
        let tally = explorer.explore()
        #expect(explorer.violations.isEmpty, "\(explorer.violations.sorted())")
        #expect(tally.orders > 0)
        #expect(tally.byReleaser.values.reduce(0, +) == tally.orders)
        // Each way of releasing the tail that the shape allows happens in some order (with a
        // request, any of them may: the checks above are what matter there).
        if shape.requester { return }
        var releasers: Set<Releaser> = []
        if shape.deciders > 0 {
            releasers.insert(.decider)
            if shape.contributors > 0 { releasers.insert(.lastWriter) }
        } else if shape.counted && shape.silent == 0 {
            releasers.insert(.completer)
        } else {
            releasers.insert(.deinitializer)
        }
        for releaser in releasers {
            #expect((tally.byReleaser[releaser] ?? 0) > 0, "the tail is never released by the \(releaser)")
        }
        #expect(Set(tally.byReleaser.keys).subtracting(releasers).isEmpty, "\(tally.byReleaser)")
    }

    @Test("the number of orders is what an explicit enumeration counts, pinned for the largest shapes")
    func orderCounts() {
        for shape in shapes where shape.contributors + shape.deciders <= 3 && !shape.requester {
            let explorer = Explorer(shape)
            #expect(explorer.explore().orders == explorer.enumerate(), "\(shape.testDescription)")
        }
        // Three contributors: 9! / (3! 3! 3!) orders of their enters, writes and leaves, the
        // completer's two steps always last. Three deciders of firstResolved: any of them wins
        // first, then 4! / 2! orders of its two steps and the two refused decisions.
        let pinned: [CombinatorShape: UInt64] = [
            CombinatorShape(contributors: 3, deciders: 0, silent: 0, counted: true): 1_680,
            CombinatorShape(contributors: 0, deciders: 3, silent: 0, counted: false): 36,
            CombinatorShape(contributors: 1, deciders: 1, silent: 0, counted: true): 29,
            CombinatorShape(contributors: 2, deciders: 2, silent: 0, counted: true): 24_024,
            CombinatorShape(contributors: 3, deciders: 1, silent: 0, counted: true): 213_300,
            CombinatorShape(contributors: 3, deciders: 2, silent: 1, counted: true): 3_710_736,
        ]
        for (shape, orders) in pinned {
            #expect(Explorer(shape).explore().orders == orders, "\(shape.testDescription)")
        }
    }

    @Test(
        "the exploration catches each seeded bug",
        arguments: [
            "decider ignores WRITING", "enter ignores DECIDED", "decide ignores DECIDED", "leave ignores DECIDED",
            "the last leave completes a decided word", "decide takes a completed word",
        ]
    )
    func seededBugsAreCaught(bug: String) {
        var moves = CombinatorMoves()
        switch bug {
        case "decider ignores WRITING":
            moves.decide = { old in
                old.decide().map { CombinatorWord.Step(word: $0.word, duty: .resolveAndReleaseTail) }
            }
        case "enter ignores DECIDED":
            moves.enter = { old in CombinatorWord(bits: old.bits + CombinatorWord.writer) }
        case "decide ignores DECIDED":
            moves.decide = { old in
                CombinatorWord.Step(word: CombinatorWord(bits: old.bits | CombinatorWord.decided), duty: .resolve)
            }
        case "the last leave completes a decided word":
            moves.leave = { old in
                let step = old.leave()
                return step.word.remaining == 0 ? CombinatorWord.Step(word: step.word, duty: .complete) : step
            }
        case "decide takes a completed word":
            moves.decide = { old in
                if old.isDecided { return nil }
                let decided = CombinatorWord(bits: old.bits | CombinatorWord.decided)
                return CombinatorWord.Step(word: decided, duty: old.writing == 0 ? .resolveAndReleaseTail : .resolve)
            }
        default:
            moves.leave = { old in
                let left = old.leave().word
                let duty: CombinatorWord.Duty =
                    left.remaining > 0 && left.writing == 0 ? .releaseTail : old.leave().duty
                return CombinatorWord.Step(word: left, duty: duty)
            }
        }
        let caught = shapes.filter { shape in
            let explorer = Explorer(shape, moves: moves)
            _ = explorer.explore()
            return !explorer.violations.isEmpty
        }
        #expect(!caught.isEmpty, "no shape catches: \(bug)")
    }
}
