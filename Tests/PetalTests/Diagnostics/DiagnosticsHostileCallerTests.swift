import Petal
import Synchronization
import Testing

// The handler is process-wide and the test process keeps its recording handler installed, so
// each test that installs a hostile handler runs in a child process of its own (an exit test):
// the child checks with `precondition`, and its exit status is the verdict.

/// A failed future nobody observes, freed at once: reported as an unobserved failure.
private func dropFailedFutureUnobserved() {
    _ = Future<Int>.rejected(with: TestError(7))
}

@Suite("Diagnostics: hostile handlers")
struct DiagnosticsHostileCallerTests {
    @Test("a handler that resolves a promise twice is called once per report: its own repeats are only counted")
    func handlerThatRepeats() async {
        await #expect(processExitsWith: .success) {
            let calls = Atomic(0)
            PetalDiagnostics.handler = { _ in
                calls.add(1, ordering: .relaxed)
                let inner = Promise<Int>()
                inner.fulfil(with: 1)
                inner.fulfil(with: 2)  // a repeat raised inside the handler
            }
            let outer = Promise<Int>()
            outer.fulfil(with: 1)
            outer.fulfil(with: 2)
            precondition(calls.load(ordering: .relaxed) == 1, "the handler was called again for its own repeat")
            precondition(PetalDiagnostics.count(of: .repeatedResolution) == 2, "the inner repeat was not counted")
        }
    }

    @Test("a handler that abandons promises and drops failures unobserved does not recurse")
    func handlerThatDropsThings() async {
        await #expect(processExitsWith: .success) {
            let calls = Atomic(0)
            PetalDiagnostics.handler = { _ in
                calls.add(1, ordering: .relaxed)
                _ = Promise<Int>()  // abandoned inside the handler
                dropFailedFutureUnobserved()
            }
            for _ in 0..<100 { _ = Promise<Int>() }
            precondition(calls.load(ordering: .relaxed) == 100, "\(calls.load(ordering: .relaxed)) calls")
            precondition(PetalDiagnostics.count(of: .abandonedPromise) == 200)
            precondition(PetalDiagnostics.count(of: .unobservedFailure) == 100)
        }
    }

    @Test("a handler that installs another: every later report goes to the new one, none is lost")
    func handlerThatReplacesItself() async {
        await #expect(processExitsWith: .success) {
            let first = Atomic(0)
            let second = Atomic(0)
            PetalDiagnostics.handler = { _ in
                first.add(1, ordering: .relaxed)
                PetalDiagnostics.handler = { _ in second.add(1, ordering: .relaxed) }
            }
            for _ in 0..<10 { _ = Promise<Int>() }
            precondition(first.load(ordering: .relaxed) == 1 && second.load(ordering: .relaxed) == 9)
        }
    }

    @Test("handlers replaced while four threads report: every report reaches exactly one handler")
    func replacedWhileReporting() async {
        await #expect(processExitsWith: .success) {
            let received = Atomic(0)
            let handler: @Sendable (PetalDiagnostic) -> Void = { _ in received.add(1, ordering: .relaxed) }
            PetalDiagnostics.handler = handler
            let threads = 4
            let rounds = 20_000
            onThreads(threads + 1) { index in
                if index == threads {
                    for _ in 0..<1_000 { PetalDiagnostics.handler = handler }
                } else {
                    for _ in 0..<rounds {
                        let promise = Promise<Int>()
                        promise.fulfil(with: 1)
                        promise.fulfil(with: 2)
                    }
                }
            }
            precondition(received.load(ordering: .relaxed) == threads * rounds)
            precondition(PetalDiagnostics.count(of: .repeatedResolution) == threads * rounds)
        }
    }

    @Test("once the site table is full, further sites are counted exactly, together, as other sites")
    func fullTableCountsOtherSites() async {
        // In a child process of its own: filling the process-wide table would send other tests'
        // sites to `other sites`.
        await #expect(processExitsWith: .success) {
            let firsts = Atomic(0)
            let unnamed = Atomic(0)
            PetalDiagnostics.handler = { report in
                if report.isFirstAtSite { firsts.add(1, ordering: .relaxed) }
                // A report counted as `other sites` still names its own site.
                if report.site.line == nil { unnamed.add(1, ordering: .relaxed) }
            }
            let sites = 1_500
            for line in 0..<UInt(sites) {
                let promise = Promise<Int>(line: 1_000_000 + line)
                promise.fulfil(with: 1)
                promise.fulfil(with: 2)
                promise.fulfil(with: 3)
            }
            let listed = PetalDiagnostics.sites(of: .repeatedResolution)
            let named = listed.filter { $0.site.name != "other sites" }
            let other = listed.first { $0.site.name == "other sites" }
            precondition(PetalDiagnostics.count(of: .repeatedResolution) == 2 * sites, "not every repeat was counted")
            precondition(named.count <= 1_024 && named.allSatisfy { $0.count == 2 }, "a named site miscounted")
            precondition(other?.count == 2 * (sites - named.count), "other sites miscounted")
            // One first report per named site, and one for all the others together.
            precondition(firsts.load(ordering: .relaxed) == named.count + 1, "\(firsts.load(ordering: .relaxed))")
            precondition(unnamed.load(ordering: .relaxed) == 0)
        }
    }

    @Test("an adjusted argument's report names the parameter, the value given and the value used")
    func adjustedArgumentReport() {
        let start = adjustedArguments.events.count
        _ = Future<Int>.retrying(RetryPolicy(attempts: 1, multiplier: .nan)) { .fulfilled(with: 1) }
        let report = adjustedArguments.events.dropFirst(start).first { $0.parameter == "RetryPolicy.multiplier" }
        #expect(report?.given == "nan")
        #expect(report?.used == "1 (a fixed wait)")
        #expect(report.map { "\($0)" }?.hasPrefix("Petal: RetryPolicy.multiplier was nan") == true)
        #expect(PetalDiagnostics.count(of: .adjustedArgument) >= 1)
        #expect(report?.severity == .warning)
        #expect(report?.details == ["given": "nan", "used": "1 (a fixed wait)"])
    }
}
