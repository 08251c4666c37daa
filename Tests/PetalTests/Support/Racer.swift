import Foundation
import Synchronization

/// Two parties that race round after round: the calling thread and one helper thread kept for
/// every round, released together by a spinning start (no thread is made per round, so a test
/// can afford hundreds of thousands of rounds, under the sanitizers too).
///
/// Each round hands each party one closure; `round` returns once both have run. The spin is a
/// start barrier, not a wait for time to pass: it only lines the two parties up.
final class Racer: Sendable {
    private let shared = Shared()

    init() {
        let shared = self.shared
        let helper = Thread {
            var round = 1
            while true {
                var seen = shared.started.load(ordering: .acquiring)
                while seen >= 0 && seen < round {
                    sched_yield()
                    seen = shared.started.load(ordering: .acquiring)
                }
                if seen < 0 { return }  // stopped
                shared.ready.store(round, ordering: .releasing)
                shared.helperBody()
                shared.finished.store(round, ordering: .releasing)
                round += 1
            }
        }
        helper.stackSize = 1 << 20
        helper.start()
    }

    /// Runs `mine` and `theirs` as round number `round` of a test asks: one round in sixteen
    /// runs them one after the other on this thread (`mine` first, then the next such round
    /// `theirs` first), so that both orders are certain to be checked whatever the machine's
    /// load; every other round races them.
    func round(_ round: Int, _ mine: () -> Void, _ theirs: @escaping () -> Void) {
        switch round % 16 {
        case 0:
            mine()
            theirs()
        case 8:
            theirs()
            mine()
        default:
            self.round(mine, theirs)
        }
    }

    /// Runs `mine` on this thread and `theirs` on the helper, started together; returns when
    /// both have returned. Call from one thread at a time.
    func round(_ mine: () -> Void, _ theirs: @escaping () -> Void) {
        let round = shared.rounds + 1
        shared.rounds = round
        shared.helperBody = theirs
        shared.started.store(round, ordering: .releasing)
        while shared.ready.load(ordering: .acquiring) < round { sched_yield() }
        mine()
        while shared.finished.load(ordering: .acquiring) < round { sched_yield() }
        shared.helperBody = {}
    }

    /// Ends the helper thread (after the last round).
    func stop() {
        shared.started.store(-1, ordering: .releasing)
    }

    /// What the two threads share.
    private final class Shared: @unchecked Sendable {
        // @unchecked: `helperBody` and `rounds` are written by the calling thread only, before
        // it publishes a round (the releasing store of `started`) or after the helper finished
        // it (the acquiring load of `finished`); the helper reads `helperBody` in between.
        var helperBody: () -> Void = {}
        var rounds = 0
        let started = Atomic<Int>(0)
        let ready = Atomic<Int>(0)
        let finished = Atomic<Int>(0)
    }
}

/// Spins `count` iterations: a random head start for one party of a race, so that the race
/// lands on every step of the other party's work across rounds.
@inline(never)
func spin(_ count: Int) {
    var sum = 0
    for index in 0..<count { sum &+= index }
    if sum == -1 { print(sum) }
}

/// The rounds a race test runs: `count`, or fewer where CI runs the whole suite again under a
/// sanitizer (`PETAL_RACE_SCALE`: 0.5 for TSan in release, 0.1 for TSan in debug on C11
/// atomics and for ASan; the plain run takes every round).
func raceScaled(_ count: Int) -> Int {
    guard let text = ProcessInfo.processInfo.environment["PETAL_RACE_SCALE"], let scale = Double(text) else {
        return scaled(count, floor: 100)
    }
    return max(100, Int(Double(count) * scale))
}
