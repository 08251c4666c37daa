import Foundation
import Testing

@testable import Petal

/// Value types of their own, so that each test finds its reports among everybody's.
struct AbandonedProbe: DiagnosticProbe {}
struct CountedAbandonedProbe: DiagnosticProbe {}
enum SurfaceJobTag {}
enum SurfaceTag {}

/// How many abandonments `PetalDiagnostics` counted at `fileID`:`line` (0 if none).
func abandonedCount(atLine line: UInt, fileID: String = #fileID) -> Int {
    PetalDiagnostics.abandonedPromiseSites.first { $0.line == line && $0.fileID.description == fileID }?.count ?? 0
}

/// The recorded reports for which `matches` holds.
func probeReports(where matches: (PetalDiagnostic) -> Bool) -> [PetalDiagnostic] {
    probeDiagnostics.events.filter(matches)
}

@Suite("Diagnostics: one handler for every kind")
struct DiagnosticsSurfaceTests {
    @Test("repeats, job starts, abandoned promises, unobserved failures and late timers all reach the one handler")
    func everyKindReachesTheHandler() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        let promise = Promise<Int>(line: line)
        #expect(promise.fulfil(with: 1))
        #expect(!promise.fulfil(with: 2))
        let job = OutputProbeJob<SurfaceJobTag>()
        #expect(job.begin())
        #expect(!job.begin())
        _ = Promise<AbandonedProbe>(line: line + 1)
        rejectPromise(of: Probe<SurfaceTag>.self, line: line + 2)
        let deadline = ContinuousClock.now
        #expect(PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + .milliseconds(250)))

        let repeats = reports(forLine: line)
        #expect(repeats.map(\.attempt) == [.fulfil])
        #expect(repeats.map { PetalDiagnostic.repeatedResolution($0).severity } == [.warning])
        let starts = repeatedJobStarts.events.filter { $0.jobType == OutputProbeJob<SurfaceJobTag>.self }
        #expect(starts.map(\.occurrence) == [1])
        let abandoned = probeReports {
            if case .abandonedPromise(let report) = $0 { return report.line == line + 1 }
            return false
        }
        #expect(abandoned.count == 1)
        #expect(abandoned.first?.isFirstAtSite == true)
        #expect(abandoned.first?.severity == .warning)
        #expect(
            abandoned.first?.description
                == "Petal: Promise<AbandonedProbe> created at \(#fileID):\(line + 1) was dropped before it was "
                + "resolved; its future was cancelled with AbandonedPromiseError")
        let unobserved = probeReports {
            if case .unobservedFailure(let report) = $0 { return report.valueType == Probe<SurfaceTag>.self }
            return false
        }
        #expect(unobserved.count == 1)
        #expect(unobserved.first?.isFirstAtSite == true)
        #expect(unobserved.first?.severity == .warning)
        let late = probeReports {
            if case .lateTimer(let report) = $0 { return report.deadline == deadline }
            return false
        }
        #expect(late.count == 1)
        #expect(late.first?.severity == .notice)
        let expected = "Petal: the timer thread ran a deadline's action 250 ms late"
        #expect(late.first?.description.hasPrefix(expected) == true)
    }

    @Test("a timer action less than the threshold late is neither counted nor reported")
    func punctualTimerIsQuiet() {
        _ = probeDiagnostics
        let deadline = ContinuousClock.now
        let almost = PetalDiagnostics.lateTimerThreshold - .milliseconds(1)
        #expect(!PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + almost))
        #expect(!PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline - .seconds(1)))
        let late = probeReports {
            if case .lateTimer(let report) = $0 { return report.deadline == deadline }
            return false
        }
        #expect(late.isEmpty)
    }

    @Test("late timers are counted, each numbered differently, from several threads")
    func lateTimersCounted() {
        _ = probeDiagnostics
        let deadline = ContinuousClock.now
        let before = PetalDiagnostics.lateTimerCount
        let threads = 4
        let rounds = scaled(50)
        onThreads(threads) { _ in
            for _ in 0..<rounds {
                PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + .seconds(1))
            }
        }
        let mine = probeReports {
            if case .lateTimer(let report) = $0 { return report.deadline == deadline }
            return false
        }
        #expect(mine.count == threads * rounds)
        #expect(Set(mine.map(\.occurrence)).count == threads * rounds)
        #expect(PetalDiagnostics.lateTimerCount - before >= threads * rounds)
    }

    @Test("promises dropped unresolved are counted exactly at their site, from eight threads")
    func abandonedPromisesCounted() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        let threads = 8
        let rounds = scaled(200)
        onThreads(threads) { _ in
            for _ in 0..<rounds {
                _ = Promise<CountedAbandonedProbe>(line: line)
                // Resolved before it is dropped: not abandoned.
                Promise<CountedAbandonedProbe>(line: line).fulfil(with: CountedAbandonedProbe())
            }
        }
        #expect(abandonedCount(atLine: line) == threads * rounds)
        let seen = probeReports {
            if case .abandonedPromise(let report) = $0 { return report.line == line }
            return false
        }
        #expect(seen.map(\.occurrence).sorted() == Array(1...(threads * rounds)))
    }
}
