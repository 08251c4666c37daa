import Petal
import Testing

enum CountedJobTag {}
enum NumberedJobTag {}

// Each test counts at sites of its own (creation lines far beyond this file's length, or job
// types of its own), so the process-wide counts of other tests running meanwhile do not matter.
@Suite("Diagnostics: counting repeats")
struct DiagnosticsCountingTests {
    @Test("repeats are counted exactly at each site, from eight threads at once")
    func exactCountsAcrossThreads() {
        _ = repeatedResolutions
        let sites = (0..<4).map { UInt(#line) * 1_000 + UInt($0) }
        let threads = 8
        let rounds = scaled(200)
        // One promise per round and site; every thread tries to fulfil each: one wins, seven lose.
        let promises = (0..<rounds).map { _ in sites.map { Promise<Int>(line: $0) } }
        let won = Counter()
        let totalBefore = PetalDiagnostics.count(of: .repeatedResolution)
        onThreads(threads) { index in
            for round in promises {
                for promise in round where promise.fulfil(with: index) { won.increment() }
            }
        }
        #expect(won.value == rounds * sites.count)
        for site in sites {
            #expect(repeatCount(atLine: site) == rounds * (threads - 1), "site \(site)")
        }
        #expect(PetalDiagnostics.count(of: .repeatedResolution) - totalBefore >= sites.count * rounds * (threads - 1))
    }

    @Test("a custom handler receives every repeat, numbered one to n at its site")
    func customHandlerSeesEveryRepeat() {
        _ = repeatedResolutions
        let line = UInt(#line) * 1_000
        let promise = Promise<String>(resolvedWith: .rejected(TestError(1)), line: line)
        let threads = 4
        let rounds = scaled(100)
        onThreads(threads) { index in
            for round in 0..<rounds {
                switch round % 3 {
                case 0: _ = promise.fulfil(with: "\(index)")
                case 1: _ = promise.reject(with: TestError(index))
                default: _ = promise.resolve(with: .cancelled(indirectError: nil))
                }
            }
        }
        let seen = reports(forLine: line)
        #expect(seen.count == threads * rounds)
        #expect(seen.map(\.occurrence).sorted() == Array(1...(threads * rounds)))
        #expect(seen.allSatisfy { $0.valueType == "String" && $0.site.name == "Promise<String>" })
        #expect(seen.filter { $0.attempt == .reject }.count == threads * ((rounds + 1) / 3))
        #expect(repeatCount(atLine: line) == threads * rounds)
    }

    @Test("repeated job starts are counted exactly per job type, and a custom handler sees each")
    func jobStartsCounted() {
        _ = repeatedJobStarts
        let jobs = (0..<16).map { _ in OutputProbeJob<CountedJobTag>() }
        let threads = 8
        let rounds = scaled(50)
        let won = repeatStarts(of: jobs, threads: threads, rounds: rounds)
        #expect(won == jobs.count)
        let expected = threads * rounds * jobs.count
        #expect(repeatedStartCount(of: OutputProbeJob<CountedJobTag>.self) == expected)
        let seen = repeatedJobStarts.events.filter { $0.site.name == "\(OutputProbeJob<CountedJobTag>.self)" }
        #expect(seen.map(\.occurrence).sorted() == Array(1...expected))
        #expect(seen.allSatisfy { $0.state == .executing })
    }

    @Test("a job type's repeated starts are numbered per type, not shared with other types")
    func jobStartsNumberedPerType() {
        _ = repeatedJobStarts
        let job = OutputProbeJob<NumberedJobTag>()
        #expect(job.begin())
        #expect(!job.begin())
        #expect(!job.begin())
        let seen = repeatedJobStarts.events.filter { $0.site.name == "\(OutputProbeJob<NumberedJobTag>.self)" }
        #expect(seen.map(\.occurrence) == [1, 2])
        #expect(repeatedStartCount(of: OutputProbeJob<NumberedJobTag>.self) == 2)
    }

    @Test("two copies of one file's name, at different addresses, are one site")
    func copiesOfAFileNameAreOneSite() throws {
        _ = repeatedResolutions
        let line = UInt(#line) * 1_000
        // A literal inlined into another module is a second copy: make one by hand, with the
        // original's flags (StaticString is a word of address, a word of length and a byte of
        // flags). Freed at the end: the site keeps the address that claimed it, the original's.
        let original: StaticString = #fileID
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: original.utf8CodeUnitCount + 1)
        defer { copy.deallocate() }
        copy.initialize(from: original.utf8Start, count: original.utf8CodeUnitCount)
        copy[original.utf8CodeUnitCount] = 0
        let layout = unsafeBitCast(original, to: (UInt, Int, UInt8).self)
        let second = unsafeBitCast((UInt(bitPattern: copy), layout.1, layout.2), to: StaticString.self)
        try #require(second.utf8Start != original.utf8Start && "\(second)" == "\(original)")

        for fileID in [original, second, original, second] {
            let promise = Promise<Int>(resolvedWith: .fulfilled(0), fileID: fileID, line: line)
            #expect(!promise.fulfil(with: 1))
        }
        #expect(repeatCount(atLine: line) == 4)
        #expect(reports(forLine: line).map(\.occurrence).sorted() == [1, 2, 3, 4])
        #expect(PetalDiagnostics.sites(of: .repeatedResolution).filter { $0.site.line == line }.count == 1)
    }

    @Test("sites are listed busiest first, each describing itself")
    func sitesBusiestFirst() {
        _ = repeatedResolutions
        let quiet = UInt(#line) * 1_000
        let busy = quiet + 1
        let once = Promise<Int>(resolvedWith: .fulfilled(0), line: quiet)
        let often = Promise<Int>(resolvedWith: .fulfilled(0), line: busy)
        _ = once.fulfil(with: 1)
        for value in 0..<3 { _ = often.fulfil(with: value) }
        let listed = PetalDiagnostics.sites(of: .repeatedResolution)
        #expect(zip(listed, listed.dropFirst()).allSatisfy { $0.count >= $1.count })
        let mine = listed.filter { $0.site.line == quiet || $0.site.line == busy }
        #expect(mine.map(\.site.line) == [busy, quiet])
        #expect(mine.first?.description == "Promise<Int> created at \(#fileID):\(busy): 3")
        #expect(mine.last?.description == "Promise<Int> created at \(#fileID):\(quiet): 1")
        #expect(mine.first?.site.name == "Promise<Int>")
        #expect(mine.first?.site.fileID == #fileID)
        #expect(PetalDiagnostics.count(of: .repeatedResolution) >= 4)
    }
}
