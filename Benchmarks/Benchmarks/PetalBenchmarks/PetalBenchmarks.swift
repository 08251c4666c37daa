import Benchmark
import Contenders

/// Every cell of the grid (workload x threads x contender) as one benchmark whose iteration is one
/// self-checking round; the report script turns rounds per second into operations per second and
/// into ratios between contenders measured in this same run.
let benchmarks: @Sendable () -> Void = {
    let profile = Profile.current
    PetalContender.prepare()
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal],
        warmupIterations: 3,
        maxDuration: profile.duration,
        maxIterations: 100_000
    )
    for workload in profile.workloads {
        for threads in profile.threadCounts {
            for entry in contenders {
                guard let round = entry.makeRound(workload, threads) else { continue }
                let name = benchmarkName(
                    workload, threads: threads, contender: entry.contender, operations: round.operations)
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
        }
    }
}
