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
    count(of: .abandonedPromise, atLine: line, fileID: fileID)
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
        // A lateness no real timer of the test process comes near, so that the report is this test's.
        let deadline = ContinuousClock.now
        #expect(PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + .milliseconds(987_250)))
        #expect(
            PetalDiagnostics.reportLateTimer(
                deadline: deadline, ranAt: deadline + .milliseconds(987_375), ownTimer: true))

        let repeats = reports(forLine: line)
        #expect(repeats.map(\.kind) == [.repeatedResolution])
        #expect(repeats.map(\.details) == [["attempt": "fulfil", "valueType": "Int"]])
        #expect(repeats.map(\.severity) == [.warning])
        #expect(repeats.first?.site.description == "Promise<Int> created at \(#fileID):\(line)")
        #expect(repeats.first?.error == nil)
        let starts = repeatedJobStarts.events.filter { $0.site.name == "OutputProbeJob<SurfaceJobTag>" }
        #expect(starts.map(\.occurrence) == [1])
        #expect(starts.map(\.details) == [["state": "executing"]])
        #expect(starts.first?.site.fileID == nil && starts.first?.site.line == nil)
        let abandoned = probeReports { $0.kind == .abandonedPromise && $0.site.line == line + 1 }
        #expect(abandoned.count == 1)
        #expect(abandoned.first?.details == ["valueType": "AbandonedProbe"])
        #expect(abandoned.first?.isFirstAtSite == true)
        #expect(abandoned.first?.severity == .warning)
        #expect(
            abandoned.first?.description
                == "Petal: Promise<AbandonedProbe> created at \(#fileID):\(line + 1) was dropped before it was "
                + "resolved; its future was cancelled with AbandonedPromiseError")
        let unobserved = probeReports { $0.kind == .unobservedFailure && $0.valueType == "Probe<SurfaceTag>" }
        #expect(unobserved.count == 1)
        #expect(unobserved.first?.isFirstAtSite == true)
        #expect(unobserved.first?.severity == .warning)
        #expect(unobserved.first?.error as? TestError == TestError(7))
        #expect(unobserved.first?.details["failure"] == "rejected")
        let late = probeReports { $0.kind == .lateTimer && $0.lateness == "987250 ms" }
        #expect(late.count == 1)
        #expect(late.first?.severity == .notice)
        #expect(late.first?.site.name == "timer thread")
        let expected = "Petal: the timer thread ran a deadline's action 987250 ms late"
        #expect(late.first?.description.hasPrefix(expected) == true)
        // A clock's own timer (an event loop's) says so: its thread was busy, not Petal's.
        let own = probeReports { $0.kind == .lateTimer && $0.lateness == "987375 ms" }
        #expect(own.count == 1)
        #expect(own.first?.details["timer"] == "the clock's own")
        #expect(
            own.first?.description.hasPrefix("Petal: a clock's own timer (DeadlineClock(timer:), an event loop's)")
                == true)
    }

    @Test("a timer action less than the threshold late is neither counted nor reported")
    func punctualTimerIsQuiet() {
        _ = probeDiagnostics
        let deadline = ContinuousClock.now
        let almost = PetalDiagnostics.lateTimerThreshold - .milliseconds(1)
        #expect(!PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + almost))
        #expect(!PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline - .seconds(1)))
        // No real timer is reported less than the threshold late, or early.
        #expect(probeReports { $0.lateness == "99 ms" || $0.lateness == "-1000 ms" }.isEmpty)
    }

    @Test("late timers are counted, each numbered differently, from several threads")
    func lateTimersCounted() {
        _ = probeDiagnostics
        let deadline = ContinuousClock.now
        let before = PetalDiagnostics.count(of: .lateTimer)
        let threads = 4
        let rounds = scaled(50)
        onThreads(threads) { _ in
            for _ in 0..<rounds {
                PetalDiagnostics.reportLateTimer(deadline: deadline, ranAt: deadline + .seconds(7_654))
            }
        }
        let mine = probeReports { $0.lateness == "7654000 ms" }
        #expect(mine.count == threads * rounds)
        #expect(Set(mine.map(\.occurrence)).count == threads * rounds)
        #expect(PetalDiagnostics.count(of: .lateTimer) - before >= threads * rounds)
        #expect(PetalDiagnostics.sites(of: .lateTimer).map(\.site.name) == ["timer thread"])
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
        let seen = probeReports { $0.kind == .abandonedPromise && $0.site.line == line }
        #expect(seen.map(\.occurrence).sorted() == Array(1...(threads * rounds)))
    }
}
