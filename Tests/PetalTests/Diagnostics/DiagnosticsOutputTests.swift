import Foundation
import Petal
import Testing

/// A job type per test, so that each test finds its own sites among everybody's reports.
final class OutputProbeJob<Tag>: Job<Int, Int>, @unchecked Sendable {}
enum FirstJobTag {}
enum SecondJobTag {}
enum FullPipeJobTag {}
enum OutputTag {}

/// Starts `jobs` (which wins), then has `threads` threads each start every one of them again
/// `rounds` times: `threads * rounds * jobs.count` repeated starts. Returns how many starts
/// won, which must be `jobs.count`.
func repeatStarts<Tag>(of jobs: [OutputProbeJob<Tag>], threads: Int, rounds: Int) -> Int {
    let won = Counter()
    for job in jobs where job.begin() { won.increment() }
    onThreads(threads) { _ in
        for _ in 0..<rounds {
            for job in jobs where job.begin() { won.increment() }
        }
    }
    return won.value
}

// The output is process-wide, so the tests that redirect it run one at a time. They go through
// the recording handler of Support/Reports.swift, which passes every report on to the default
// handler, `printFirstAtEachSite`: what is written is exactly what it writes.
@Suite("Diagnostics: the default output", .serialized)
struct DiagnosticsOutputTests {
    @Test("the default handler writes one line per creation site, however many threads repeat")
    func oneLinePerSite() {
        _ = repeatedResolutions
        let sites = (0..<3).map { UInt(#line) * 1_000 + UInt($0) }
        let threads = 8
        let rounds = scaled(50)
        let promises = sites.map { Promise<Int>(resolvedWith: .fulfilled(0), line: $0) }
        let won = Counter()
        let output = capturingDiagnosticOutput {
            onThreads(threads) { _ in
                for round in 0..<rounds {
                    for promise in promises {
                        if promise.fulfil(with: round) { won.increment() }
                        if promise.cancel() { won.increment() }
                    }
                }
            }
        }
        #expect(won.value == 0)
        for site in sites {
            let written = lines(in: output, namingLine: site)
            #expect(written.count == 1, "site \(site) wrote \(written.count) lines")
            #expect(written.first?.contains("Promise<Int>") == true)
            #expect(written.first?.contains("PetalDiagnostics.sites(of: .repeatedResolution)") == true)
            #expect(repeatCount(atLine: site) == threads * rounds * 2)
        }
    }

    @Test("the default handler writes one line per job type for repeated starts")
    func oneLinePerJobType() {
        _ = repeatedJobStarts
        let first = (0..<4).map { _ in OutputProbeJob<FirstJobTag>() }
        let second = (0..<4).map { _ in OutputProbeJob<SecondJobTag>() }
        let rounds = scaled(20)
        var won = 0
        let output = capturingDiagnosticOutput {
            won += repeatStarts(of: first, threads: 4, rounds: rounds)
            won += repeatStarts(of: second, threads: 4, rounds: rounds)
        }
        #expect(won == first.count + second.count)
        for type in [OutputProbeJob<FirstJobTag>.self, OutputProbeJob<SecondJobTag>.self] as [Any.Type] {
            let written = output.split(separator: "\n").filter { $0.contains("second start of \(type) ") }
            #expect(written.count == 1, "\(type) wrote \(written.count) lines")
            #expect(written.first?.contains("it is executing") == true)
            #expect(written.first?.contains("PetalDiagnostics.sites(of: .repeatedJobStart)") == true)
            #expect(repeatedStartCount(of: type) == 4 * rounds * 4)
        }
    }

    @Test("the default handler writes one line per creation site for abandoned promises")
    func oneLinePerAbandonmentSite() {
        _ = probeDiagnostics
        let sites = (0..<3).map { UInt(#line) * 1_000 + UInt($0) }
        let rounds = scaled(50)
        let output = capturingDiagnosticOutput {
            onThreads(4) { _ in
                for _ in 0..<rounds {
                    for site in sites { _ = Promise<AbandonedProbe>(line: site) }
                }
            }
        }
        for site in sites {
            let written = output.split(separator: "\n").filter {
                $0.contains("Promise<AbandonedProbe> created at \(#fileID):\(site) was dropped before it was resolved")
            }
            #expect(written.count == 1, "site \(site) wrote \(written.count) lines")
            #expect(written.first?.contains("PetalDiagnostics.sites(of: .abandonedPromise)") == true)
            #expect(abandonedCount(atLine: site) == 4 * rounds)
        }
    }

    @Test("the default handler writes one line per promise site for unobserved failures")
    func oneLinePerUnobservedSite() {
        _ = probeDiagnostics
        let sites = (0..<3).map { UInt(#line) * 1_000 + UInt($0) }
        let rounds = scaled(50)
        let output = capturingDiagnosticOutput {
            onThreads(4) { _ in
                for _ in 0..<rounds {
                    for site in sites { rejectPromise(of: Probe<OutputTag>.self, line: site) }
                }
            }
        }
        for site in sites {
            let written = output.split(separator: "\n").filter {
                $0.contains("nobody observed the failure of a Future<Probe<OutputTag>>")
                    && $0.contains("created at \(#fileID):\(site))")
            }
            #expect(written.count == 1, "site \(site) wrote \(written.count) lines")
            #expect(written.first?.contains("PetalDiagnostics.sites(of: .unobservedFailure)") == true)
            #expect(unobservedCount(atLine: site) == 4 * rounds)
        }
    }

    @Test("a full standard-error pipe never blocks a repeat: each returns and is counted, lines are dropped")
    func fullPipeNeverBlocks() {
        _ = repeatedResolutions
        _ = repeatedJobStarts
        let pipe = Pipe()
        pipe.fill()
        let previous = PetalDiagnostics.outputDescriptor
        PetalDiagnostics.outputDescriptor = pipe.writeEnd
        let droppedBefore = PetalDiagnostics.droppedLineCount

        // Many sites, so many more first lines than the writer can queue (64) while it is stuck;
        // not so many that the tally's 1,024 slots, shared by every test of the process, leave a
        // site with no free slot in its probe (600 did once the suite had grown: one site was
        // counted in `other sites`).
        let sites = (0..<300).map { UInt(#line) * 1_000 + UInt($0) }
        let promises = sites.map { Promise<Int>(resolvedWith: .fulfilled(0), line: $0) }
        let jobs = (0..<8).map { _ in OutputProbeJob<FullPipeJobTag>() }
        for job in jobs { #expect(job.begin()) }
        let threads = 4
        let rounds = 5
        let finished = onThreads(threads, finishingWithin: .seconds(60)) { _ in
            for round in 0..<rounds {
                for promise in promises { _ = promise.fulfil(with: round) }
                for job in jobs { _ = job.begin() }
            }
        }
        let dropped = PetalDiagnostics.droppedLineCount - droppedBefore
        let counts = repeatCounts()

        // Drain the pipe, so the stuck writer writes what it queued, then send the output back.
        let reader = pipe.startReading()
        PetalDiagnostics.outputDescriptor = previous
        _ = close(pipe.writeEnd)
        let output = reader.text()
        _ = close(pipe.readEnd)

        guard finished else {
            Issue.record("repeats were still blocked after a minute: the resolving threads wait on the output")
            return
        }
        #expect(sites.filter { counts[$0] != threads * rounds }.isEmpty, "sites not counted exactly")
        #expect(repeatedStartCount(of: OutputProbeJob<FullPipeJobTag>.self) == threads * rounds * jobs.count)
        #expect(dropped > 0)
        let writtenBySite = lineCounts(in: output)
        let written = sites.map { writtenBySite[$0] ?? 0 }
        #expect(written.allSatisfy { $0 <= 1 })
        // Every site's line was either written or dropped (other tests' lines may be among
        // those dropped, hence at least).
        #expect(written.reduce(0, +) + dropped >= sites.count)
        #expect(written.reduce(0, +) < sites.count)
    }
}
