import Foundation
import Petal
import Synchronization
import Testing

@Suite("Soak")
struct SoakTests {
    @Test("mixed operations on 2 to 8 threads: callbacks run once, in order; one winner a race; memory stays flat")
    func soak() {
        let plan = SoakPlan()
        let alone = soakRunsAlone()
        let clock = ContinuousClock()
        let started = clock.now
        var report = SoakReport(start: MemorySample.now())
        for round in 0..<plan.rounds {
            let threads = plan.threads(inRound: round)
            let (tally, planned) = SoakRound.run(threads: threads, operations: plan.operationsPerRound)
            report.add(tally)
            let label = "round \(round) on \(threads) threads"
            // Exact counts: every planned call made, every callback run once, one winner a race.
            #expect(tally.operations == planned, "\(label)")
            #expect(tally.callbacksRan == tally.callbacksExpected, "\(label)")
            #expect(tally.unexpectedCallbacks == 0, "\(label)")
            #expect(tally.repeatedCallbacks == 0, "\(label)")
            #expect(tally.disorders == 0, "\(label)")
            #expect(tally.racesWithOneWinner == tally.races, "\(label)")
            #expect(tally.wrongOutcomes == 0, "\(label)")
            #expect(tally.problems.isEmpty, "\(label): \(tally.problems)")
            // The round's scenarios are gone, so every value, error and capture must be too.
            let live = SoakToken.live.load(ordering: .relaxed)
            #expect(live == 0, "\(label): \(live) tokens still alive")
            report.sample(MemorySample.now(), afterRound: round)
            // One failing round says it all; more would only repeat it.
            if !tally.problems.isEmpty || live != 0 || tally.operations != planned { break }
        }
        report.elapsed = clock.now - started
        if alone, let rise = report.largestRise {
            #expect(
                rise.bytes <= SoakPlan.heapTolerance,
                "the heap rose \(describeBytes(rise.bytes)) above its baseline by round \(rise.round)"
            )
        }
        // The racing promises ignore repeats; every other promise and job was resolved once.
        #expect(repeatCounts(fileID: "PetalTests/SoakScenarios.swift").isEmpty)
        #expect(repeatedStartCount(of: RacingJob.self) == 0)
        print(report.lines(heapChecked: alone))
    }
}

/// What a soak did and what memory did meanwhile, for the lines it prints.
struct SoakReport {
    private var total = SoakTally()
    private var rounds = 0
    private let start: MemorySample
    private var baseline: MemorySample?
    private var last: MemorySample
    /// The heap's largest rise above the baseline, and the round after which it was seen.
    private(set) var largestRise: (bytes: Int, round: Int)?
    var elapsed = Duration.zero

    init(start: MemorySample) {
        self.start = start
        last = start
    }

    mutating func add(_ tally: SoakTally) {
        total.add(tally)
        rounds += 1
    }

    /// Records memory after `round`: the baseline after the warm-up, rises above it after that.
    mutating func sample(_ sample: MemorySample, afterRound round: Int) {
        last = sample
        if round == SoakPlan.warmUpRounds - 1 {
            baseline = sample
        } else if let before = baseline?.heap, let after = sample.heap, after - before > largestRise?.bytes ?? .min {
            largestRise = (after - before, round)
        }
    }

    func lines(heapChecked: Bool) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let check = heapChecked ? "tolerance \(describeBytes(SoakPlan.heapTolerance))" : "not checked: other tests run"
        func memory(_ pick: (MemorySample) -> Int?) -> String {
            "\(describeBytes(pick(start))) at the start, \(describeBytes(baseline.flatMap(pick))) after the warm-up, "
                + "\(describeBytes(pick(last))) at the end"
        }
        return """
            soak: \(total.operations) operations on 2 to 8 threads in \(rounds) rounds, \
            \(String(format: "%.2f", seconds)) s (\(Int(Double(total.operations) / seconds)) a second): \
            \(total.callbacksRan) callbacks, \(total.races) races, \(total.timedOutWaits) waits timed out
            soak: heap in use \(memory(\.heap)); largest rise \(describeBytes(largestRise?.bytes)) (\(check); \
            \(MemorySample.heapSource))
            soak: RSS \(memory(\.resident))\(start.arenas == nil ? "" : "; glibc's arenas \(memory(\.arenas))")
            """
    }
}
