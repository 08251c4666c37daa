import CPetal
import Testing

@testable import Petal

/// A request word with `dependents` counted, `votes` cast, and the two flags.
private func word(
    dependents: petal_word = 0, votes: petal_word = 0, propagates: Bool = false, requested: Bool = false
) -> petal_word {
    var bits = dependents | (votes << CancellationRecord.countWidth)
    if propagates { bits |= CancellationRecord.propagates }
    if requested { bits |= CancellationRecord.requested }
    return bits
}

@Suite("Cancellation: the request word, move by move")
struct CancellationRequestWordTests {
    @Test("the fields do not overlap, and the counts are 31 bits wide")
    func layout() {
        #expect(CancellationRecord.countMask == (1 << 31) - 1)
        #expect(CancellationRecord.propagates & CancellationRecord.requested == 0)
        let full = word(dependents: CancellationRecord.countMask, votes: CancellationRecord.countMask)
        #expect(full & (CancellationRecord.propagates | CancellationRecord.requested) == 0)
        #expect(CancellationRecord.dependents(full) == CancellationRecord.countMask)
        #expect(CancellationRecord.votes(full) == CancellationRecord.countMask)
    }

    @Test("propagating sets its bit once and keeps every other")
    func propagating() {
        #expect(CancellationRecord.propagating(word(dependents: 2)) == word(dependents: 2, propagates: true))
        #expect(CancellationRecord.propagating(word(propagates: true)) == nil)
        #expect(
            CancellationRecord.propagating(word(dependents: 1, votes: 1, requested: true))
                == word(dependents: 1, votes: 1, propagates: true, requested: true))
    }

    @Test("a dependent is counted until a request arrives or the count is full")
    func addingDependent() {
        #expect(CancellationRecord.addingDependent(word(propagates: true)) == word(dependents: 1, propagates: true))
        #expect(CancellationRecord.addingDependent(word(dependents: 3, votes: 2)) == word(dependents: 4, votes: 2))
        #expect(CancellationRecord.addingDependent(word(dependents: 1, requested: true)) == nil)
        #expect(CancellationRecord.addingDependent(word(dependents: CancellationRecord.countMask)) == nil)
    }

    @Test("a direct request sets REQUESTED once, whatever the votes")
    func requesting() {
        #expect(CancellationRecord.requesting(word()) == word(requested: true))
        #expect(
            CancellationRecord.requesting(word(dependents: 3, votes: 1))
                == word(dependents: 3, votes: 1, requested: true))
        #expect(CancellationRecord.requesting(word(requested: true)) == nil)
    }

    @Test("votes count up, and the one that reaches the dependents requests")
    func voting() {
        var current = word(dependents: 3, propagates: true)
        for cast in 1...3 {
            let next = CancellationRecord.voting(current)
            #expect(next == word(dependents: 3, votes: petal_word(cast), propagates: true, requested: cast == 3))
            current = next ?? current
        }
        #expect(CancellationRecord.voting(current) == nil, "a vote after the request changes nothing")
    }

    @Test("a vote changes nothing with no dependents, beyond the count, or when the count is saturated")
    func votesThatCountNothing() {
        #expect(CancellationRecord.voting(word()) == nil)
        #expect(CancellationRecord.voting(word(dependents: 2, votes: 2)) == nil)
        let saturated = word(dependents: CancellationRecord.countMask, votes: 5)
        #expect(CancellationRecord.voting(saturated) == nil)
    }

    @Test("every order of two dependents' votes and a direct request requests exactly once")
    func interleavings() {
        enum Move: CaseIterable { case firstVote, secondVote, request }
        let orders: [[Move]] = [
            [.firstVote, .secondVote, .request], [.firstVote, .request, .secondVote],
            [.secondVote, .firstVote, .request], [.secondVote, .request, .firstVote],
            [.request, .firstVote, .secondVote], [.request, .secondVote, .firstVote],
        ]
        for order in orders {
            var current = word(dependents: 2, propagates: true)
            var requests = 0
            for move in order {
                let next =
                    move == .request ? CancellationRecord.requesting(current) : CancellationRecord.voting(current)
                guard let next else { continue }
                if next & CancellationRecord.requested != 0 && current & CancellationRecord.requested == 0 {
                    requests += 1
                }
                current = next
            }
            #expect(requests == 1, "order \(order)")
            #expect(current & CancellationRecord.requested != 0)
        }
    }
}
