import Foundation
import LibraryPromises

/// Which cells a run measures: `PETAL_BENCH_PROFILE=full` selects more threads and longer runs.
public struct Profile: Sendable {
    public let name: String
    public let threadCounts: [Int]
    public let workloads: [Workload]
    /// Wall-clock budget per benchmark.
    public let duration: Duration
    /// How many times the whole grid runs, one pass after another. Ratios are taken within a
    /// pass (contenders of a cell run back to back) and their median over the passes is
    /// reported, so a neighbour slowing this shared machine for a few seconds moves one pass,
    /// not the result.
    public let repetitions: Int
    /// The most iterations (rounds) a benchmark measures, whatever its budget.
    public var maxIterations = 100_000

    public static var current: Profile {
        switch ProcessInfo.processInfo.environment["PETAL_BENCH_PROFILE"] {
        case "full": .full
        case "smoke": .smoke
        default: .quick
        }
    }

    /// The grid of the targets: T = 1, 2, 4, short runs; for CI and the README's run command.
    /// `PETAL_BENCH_PASSES` sets the passes (CI's checked contenders run five, see `Scripts/run`).
    public static var quick: Profile {
        Profile(
            name: "quick", threadCounts: [1, 2, 4], workloads: Workload.allCases, duration: .milliseconds(120),
            repetitions: passes(default: 3))
    }

    /// The passes `PETAL_BENCH_PASSES` asks for (1 to 15), or `fallback`.
    static func passes(default fallback: Int) -> Int {
        guard let text = ProcessInfo.processInfo.environment["PETAL_BENCH_PASSES"], let passes = Int(text),
            (1...15).contains(passes)
        else { return fallback }
        return passes
    }

    /// The contenders (and fan-out styles) `PETAL_BENCH_CONTENDERS` names, `|` between names
    /// (a name may hold a comma), or `nil` for every one.
    ///
    /// Why a choice at registration, not only `--filter`: package-benchmark runs each benchmark
    /// in a process of its own, which registers every benchmark again and checks each new name
    /// against all those before it. With every contender in five passes (3,250 names) that
    /// was about a quarter of a second per process, most of CI's benchmark time: the filter
    /// chooses what runs, not what each process registers.
    public static var chosenContenders: Set<String>? {
        guard let text = ProcessInfo.processInfo.environment["PETAL_BENCH_CONTENDERS"], !text.isEmpty else {
            return nil
        }
        return Set(text.split(separator: "|").map(String.init))
    }

    /// A few rounds of every cell at T = 1, one pass: to check that a benchmark runs and checks
    /// itself (with `--filter`, one new benchmark), never to measure.
    public static var smoke: Profile {
        var profile = Profile(
            name: "smoke", threadCounts: [1], workloads: Workload.allCases, duration: .milliseconds(10),
            repetitions: 1)
        profile.maxIterations = 5
        return profile
    }

    /// Threads from 1 to four times the cores, longer runs.
    public static var full: Profile {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var counts: [Int] = []
        var threads = 1
        while threads <= 4 * cores {
            counts.append(threads)
            threads *= 2
        }
        return Profile(
            name: "full", threadCounts: counts, workloads: Workload.allCases, duration: .seconds(1), repetitions: 3)
    }
}

/// A contender with its rounds built for a cell.
public struct Entry: Sendable {
    public let contender: String
    public let makeRound: @Sendable (Workload, Int) -> Round?
}

/// Every contender, in table order (Petal first: ratios are to Petal).
public let contenders: [Entry] = [
    entry(PetalContender.self),
    UniquePromisePrototype.entry,
    entry(RawCoreContender.self),
    RawCoreC11Contender.entry,
    entry(CMutexFutureContender.self),
    entry(CTreiberFutureContender.self),
    entry(BareContender.self),
    entry(LockedContender<GenericBarePromise<Int>>.self),
    entry(LockedContender<MutexPromise>.self),
    entry(LockedContender<GenericMutexPromise<Int>>.self),
    entry(LockedContender<NSLockPromise>.self),
    entry(LockedContender<QueuePromise>.self),
    entry(NIOForeignContender.self),
    entry(NIOOnLoopContender.self),
    entry(ContinuationContender.self),
]

func entry<C: Contender>(_: C.Type) -> Entry {
    Entry(contender: C.name) { workload, threads in
        guard workload.fits(C.self, threads: threads),
            (workload.minimumThreads...workload.maximumThreads).contains(threads)
        else {
            return nil
        }
        return workload.round(for: C.self, threads: threads)
    }
}

/// The benchmark name that carries the cell and the pass, parsed back by Scripts/benchmark-report.
///
/// The pass comes first because package-benchmark runs the benchmarks sorted by name, each in a
/// process of its own: with the pass last, a cell's three passes ran back to back, so a few slow
/// seconds of this shared machine (or one slow spell of a process's core) took all three and
/// the median could not leave it out. Pass first, each pass sweeps the whole grid before the
/// next begins, and the contenders of a cell still run next to each other within a pass.
public func benchmarkName(
    _ workload: Workload, threads: Int, contender: String, operations: Int, pass: Int
) -> String {
    "pass=\(pass) | \(workload.rawValue) | T=\(threads) | \(contender) | ops=\(operations)"
}
