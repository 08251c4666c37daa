import Benchmark
import Contenders

/// Every cell of the grid (workload x threads x contender), in each of the profile's passes, as
/// one benchmark whose iteration is one self-checking round; the report script turns rounds per
/// second into operations per second, and into ratios between contenders measured in the same
/// pass of this same run.
let benchmarks: @Sendable () -> Void = {
    let profile = Profile.current
    PetalContender.prepare()
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: profile.duration,
        maxIterations: profile.maxIterations
    )
    let chosen = Profile.chosenContenders
    for pass in 1...profile.repetitions {
        for workload in profile.workloads {
            for threads in profile.threadCounts {
                for entry in contenders where chosen?.contains(entry.contender) ?? true {
                    register(workload, threads, entry, pass)
                }
            }
        }
        for cell in FanOutCell.all where chosen?.contains(cell.style.rawValue) ?? true {
            registerFanOut(cell, pass)
        }
    }
}

/// One cell of one pass as a benchmark whose iteration is one self-checking round.
func register(_ workload: Workload, _ threads: Int, _ entry: Entry, _ pass: Int) {
    guard let round = entry.makeRound(workload, threads) else { return }
    let name = benchmarkName(
        workload, threads: threads, contender: entry.contender, operations: round.operations, pass: pass)
    Benchmark(name) { benchmark in
        for _ in benchmark.scaledIterations {
            round.setUp()
            benchmark.startMeasurement()
            round.measure()
            benchmark.stopMeasurement()
            round.tearDown()
        }
    }
}

/// One fan-out cell of one pass: an iteration is a round of requests, each checking its answer.
func registerFanOut(_ cell: FanOutCell, _ pass: Int) {
    let name = "pass=\(pass) | \(cell.workloadName) | T=1 | \(cell.style.rawValue) | ops=\(cell.operations)"
    Benchmark(name) { benchmark async in
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            await cell.runRound()
            benchmark.stopMeasurement()
        }
    }
}
