import Foundation

/// How big a soak is, and how it is cut into rounds.
///
/// `PETAL_SOAK_OPERATIONS` sets the number of operations (public API calls); without it the
/// soak is small enough for the everyday suite (scaled by `PETAL_TEST_SCALE` like the other
/// tests). The operations are cut into about fifty rounds, so that a round is long enough to
/// churn the allocator and there are rounds enough, after the warm-up, to see the heap grow.
struct SoakPlan {
    /// About a second in a debug build on two cores.
    static let defaultOperations = 500_000

    /// One round for each thread count, 2 to 8, before the heap's baseline is taken: by then
    /// every lazily made thing (metadata, the runtime's caches, Petal's tables) exists.
    static let warmUpRounds = 7

    /// How far the heap may rise above its baseline. glibc's tcache keeps up to seven free
    /// chunks of each of its 64 sizes (32 to 1040 bytes) per thread, and counts them as in use:
    /// 7 × (32 + 48 + … + 1040) bytes = 235 KiB for the test's own thread, the only one
    /// besides the soak threads (joined before each sample) that frees during the soak. Under a
    /// sanitizer the count is exact and this is generous. What it lets through: in a soak of
    /// 10 million operations, 8.6 million come after the baseline, so a leak of 48 bytes every
    /// 1 500 operations fails; the everyday size catches only a leak every hundred or so, but
    /// the count of live tokens catches any value, error or capture kept, exactly.
    static let heapTolerance = 256 << 10

    let operations: Int
    let rounds: Int
    let operationsPerRound: Int

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let asked = environment["PETAL_SOAK_OPERATIONS"].flatMap { Int($0.replacingOccurrences(of: "_", with: "")) }
        operations = max(1, asked ?? scaled(SoakPlan.defaultOperations, floor: 10_000))
        operationsPerRound = max(500, operations / 50)
        rounds = max(2 * SoakPlan.warmUpRounds, (operations + operationsPerRound - 1) / operationsPerRound)
    }

    /// Rounds cycle through 2 to 8 threads: oversubscribed on a small machine, so threads are
    /// preempted in the middle of operations, and each count is seen in the warm-up.
    func threads(inRound round: Int) -> Int { 2 + round % 7 }
}

/// A round: every thread plays the same scenarios in the same order, each in a role that
/// rotates with the scenario's index (thread `t` plays role `(t + index) % threads`), so that
/// every thread plays every part and the threads meet on each shared promise at about the same
/// time.
enum SoakRound {
    /// Makes scenarios until they plan at least `operations` calls, plays them on `threads`
    /// threads, and returns what was done and seen, with the number of calls planned.
    static func run(threads: Int, operations: Int) -> (tally: SoakTally, planned: Int) {
        let workers = (0..<threads).map { _ in SoakWorker() }
        var scenarios: [any SoakScenario] = []
        var planned = 0
        while planned < operations {
            let scenario = SoakCycle.scenario(scenarios.count, threads: threads, workers: workers)
            planned += scenario.operations
            scenarios.append(scenario)
        }
        let roster = scenarios
        onJoinedThreads(threads) { thread in
            let worker = workers[thread]
            for (index, scenario) in roster.enumerated() {
                worker.tally.operations += scenario.play(role: (thread + index) % threads, on: worker)
            }
        }
        var tally = SoakTally()
        for scenario in scenarios { scenario.check(into: &tally) }
        for worker in workers {
            tally.add(worker.tally)
            if worker.dropped != worker.promisesToDrop.count {
                tally.problem("a thread dropped \(worker.dropped) of its \(worker.promisesToDrop.count) promises")
            }
        }
        return (tally, planned)
    }
}

/// Whether the soak is the only test in this process, so that the heap is the soak's alone:
/// `swift test --filter Soak` (which is how `Scripts/soak` runs it). In the whole suite other
/// tests allocate and free megabytes meanwhile, on other threads, and the heap says nothing
/// about the soak; the count of live tokens still does.
func soakRunsAlone(arguments: [String] = CommandLine.arguments) -> Bool {
    var filters: [String] = []
    for (argument, next) in zip(arguments, arguments.dropFirst()) where argument == "--filter" {
        filters.append(next)
    }
    filters += arguments.filter { $0.hasPrefix("--filter=") }
    return !filters.isEmpty && filters.allSatisfy { $0.contains("Soak") }
}
