import Petal
import Testing

/// A value type per test (or per test case), so that each finds its own reports among
/// everybody's: the recording handler keeps the unobserved failures of `DiagnosticProbe` types.
struct Probe<Tag>: DiagnosticProbe {}
enum RejectedTag {}
enum QuietTag {}
enum ObservedTag {}
enum FulfilledOnlyTag {}
enum ChainTag {}
enum ThreadsTag {}
enum NoPromiseTag {}
enum AbandonedTag {}
enum JobTag {}
enum MappedTag {}

/// The recorded unobserved failures of futures of `Value`.
func unobservedFailures<Value>(of _: Value.Type) -> [PetalDiagnostic] {
    probeDiagnostics.events.filter { $0.kind == .unobservedFailure && $0.valueType == "\(Value.self)" }
}

/// The recorded unobserved failures of futures of `Value` whose promise was created at `line`.
func unobservedFailures<Value>(of type: Value.Type, atLine line: UInt) -> [PetalDiagnostic] {
    unobservedFailures(of: type).filter { $0.site.line == line }
}

/// How many unobserved failures `PetalDiagnostics` counted at the promise site `fileID`:`line`.
func unobservedCount(atLine line: UInt, fileID: String = #fileID) -> Int {
    count(of: .unobservedFailure, atLine: line, fileID: fileID)
}

/// Creates a promise at `fileID`:`line`, lets `body` do with its future what it likes, then rejects it
/// with `TestError(code)` and lets go of everything: when this returns, the future is freed
/// (any report has been made).
@inline(never)
func rejectPromise<Value>(
    of _: Value.Type, fileID: StaticString = #fileID, line: UInt, code: Int = 7,
    _ body: (Future<Value>) -> Void = { _ in }
) {
    let promise = Promise<Value>(fileID: fileID, line: line)
    body(promise.future)
    promise.reject(with: TestError(code))
}

/// The ways to observe a failure without passing it on to a future nobody observes.
enum Observation: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case whenResolved, whenRejected, whenAnyError, catchAll, always, declinedRecover, recoveredValue
    case peek, wait, combinator

    func observe<Value: Sendable>(_ future: Future<Value>, fallback: Value) {
        switch self {
        case .whenResolved: future.whenResolved { _ in }
        case .whenRejected: future.whenRejected { _ in }
        case .whenAnyError: future.whenAnyError { _ in }
        case .catchAll: future.catch { _ in }
        case .always: future.always {}
        case .declinedRecover: _ = future.recover { _ in nil }
        case .recoveredValue: _ = future.recover(using: fallback)
        case .peek: _ = future.peek()
        case .wait: _ = future.wait(timeout: .seconds(0))
        case .combinator: Future.allResolved([future]).whenResolved { _ in }
        }
    }

    /// Whether the observation only looks at the outcome at the moment it is made.
    var onlyLooks: Bool { self == .peek || self == .wait }

    var testDescription: String { rawValue }
}

@Suite("Diagnostics: failures nobody observed")
struct UnobservedFailureTests {
    @Test("a rejected future nobody observes is reported once, with its promise's site")
    func rejectedUnobservedIsReported() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        rejectPromise(of: Probe<RejectedTag>.self, line: line)
        let seen = unobservedFailures(of: Probe<RejectedTag>.self)
        #expect(seen.count == 1)
        #expect(seen.first?.site.line == line)
        #expect(seen.first?.site.fileID == #fileID)
        #expect(seen.first?.site.name == "Promise<Probe<RejectedTag>>")
        #expect(seen.first?.details["failure"] == "rejected")
        #expect(seen.first?.details["error"] == "TestError(code: 7)")
        #expect(seen.first?.error as? TestError == TestError(7))
        #expect(seen.first?.occurrence == 1)
        #expect(
            seen.first?.description
                == "Petal: nobody observed the failure of a Future<Probe<RejectedTag>> (from the promise created at "
                + "\(#fileID):\(line)): rejected with TestError(code: 7)")
        #expect(unobservedCount(atLine: line) == 1)
    }

    @Test("fulfilled futures and cancellations without an error are never reported")
    func quietOutcomesAreNotReported() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        func drop() {
            Promise<Probe<QuietTag>>(line: line).fulfil(with: Probe())
            Promise<Probe<QuietTag>>(line: line).cancel()
            Promise<Probe<QuietTag>>(line: line).resolve(with: .cancelled(indirectError: nil))
            _ = Future<Probe<QuietTag>>.fulfilled(with: Probe())
            _ = Future<Probe<QuietTag>>.cancelled()
            _ = Promise<Probe<QuietTag>>(resolvedWith: .fulfilled(Probe()), line: line)
        }
        drop()
        #expect(unobservedFailures(of: Probe<QuietTag>.self).isEmpty)
        #expect(unobservedCount(atLine: line) == 0)
    }

    @Test(
        "an observed failure is never reported, observed before or after it happened",
        arguments: Observation.allCases, [true, false])
    func observedIsNotReported(observation: Observation, beforeFailing: Bool) {
        _ = probeDiagnostics
        let index = UInt(Observation.allCases.firstIndex(of: observation)!)
        let line = UInt(#line) * 1_000 + index * 2 + (beforeFailing ? 0 : 1)
        // Looking at a pending future observes nothing: those observations come after.
        if beforeFailing && !observation.onlyLooks {
            rejectPromise(of: Probe<ObservedTag>.self, line: line) { observation.observe($0, fallback: Probe()) }
        } else {
            rejectedThenObserved(line: line, observation)
        }
        #expect(unobservedFailures(of: Probe<ObservedTag>.self, atLine: line).isEmpty)
        #expect(unobservedCount(atLine: line) == 0)
    }

    @inline(never)
    private func rejectedThenObserved(line: UInt, _ observation: Observation) {
        let promise = Promise<Probe<ObservedTag>>(line: line)
        promise.reject(with: TestError(1))
        observation.observe(promise.future, fallback: Probe())
    }

    @Test("whenFulfilled alone does not observe a failure")
    func whenFulfilledDoesNotObserve() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        rejectPromise(of: Probe<FulfilledOnlyTag>.self, line: line) { $0.whenFulfilled { _ in } }
        #expect(unobservedFailures(of: Probe<FulfilledOnlyTag>.self, atLine: line).count == 1)
    }

    @Test("a then chain nobody observes is reported once, at its end; one ending in catch or always never")
    func chainsReportedAtTheirEnd() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        rejectPromise(of: Int.self, line: line) { future in
            _ = future.then { $0 + 1 }.then { $0 * 2 }.then { _ in Probe<ChainTag>() }
        }
        rejectPromise(of: Int.self, line: line + 1) { future in
            _ = future.then { $0 + 1 }.then { _ in Probe<ChainTag>() }.catch { _ in }
        }
        rejectPromise(of: Int.self, line: line + 2) { future in
            _ = future.then { _ in Probe<ChainTag>() }.always {}
        }
        let seen = unobservedFailures(of: Probe<ChainTag>.self)
        #expect(seen.count == 1)
        #expect(seen.first?.site.line == line)
        // Named by the promise the failure came from, not by the chain's end.
        #expect(seen.first?.site.name == "Promise<Int>")
        #expect(seen.first?.details["failure"] == "cancelled")
        #expect(seen.first?.error as? TestError == TestError(7))
        // The links before the end observed the failure, passing it on: not reported as Int.
        #expect(unobservedCount(atLine: line) == 1)
        #expect(unobservedCount(atLine: line + 1) == 0)
        #expect(unobservedCount(atLine: line + 2) == 0)
    }

    @Test("mapError passes the failure on, reported at the end with the promise's site and the new error")
    func mapErrorPassesOn() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        rejectPromise(of: Probe<MappedTag>.self, line: line) { future in
            _ = future.mapError { _ in TestError(99) }
        }
        let seen = unobservedFailures(of: Probe<MappedTag>.self, atLine: line)
        #expect(seen.count == 1)
        #expect(seen.first?.error as? TestError == TestError(99))
        #expect(unobservedCount(atLine: line) == 1)
    }

    @Test("unobserved failures are counted exactly per site from eight threads, observed ones never")
    func exactCountsAcrossThreads() {
        _ = probeDiagnostics
        let sites = (0..<3).map { UInt(#line) * 1_000 + UInt($0) }
        let observedSite = sites[2]
        let threads = 8
        let rounds = scaled(200)
        onThreads(threads) { _ in
            for round in 0..<rounds {
                rejectPromise(of: Probe<ThreadsTag>.self, line: sites[0], code: round)
                rejectPromise(of: Probe<ThreadsTag>.self, line: sites[1], code: round) { _ = $0.then { $0 } }
                rejectPromise(of: Probe<ThreadsTag>.self, line: observedSite, code: round) { $0.catch { _ in } }
            }
        }
        for site in sites.dropLast() {
            #expect(unobservedCount(atLine: site) == threads * rounds, "site \(site)")
            let seen = unobservedFailures(of: Probe<ThreadsTag>.self, atLine: site)
            #expect(seen.map(\.occurrence).sorted() == Array(1...(threads * rounds)), "site \(site)")
        }
        #expect(unobservedCount(atLine: observedSite) == 0)
    }

    @Test("a failure no promise is known for is counted by value type and error type")
    func failureWithoutPromise() {
        _ = probeDiagnostics
        func drop() {
            for code in 0..<3 { _ = Future<Probe<NoPromiseTag>>.rejected(with: TestError(code)) }
            _ = Future<Probe<NoPromiseTag>>.cancelled(withIndirectError: TestError(3))
        }
        drop()
        let seen = unobservedFailures(of: Probe<NoPromiseTag>.self)
        #expect(seen.count == 4)
        let name = "Future<Probe<NoPromiseTag>>, TestError"
        #expect(seen.allSatisfy { $0.site.name == name && $0.site.fileID == nil && $0.site.line == nil })
        #expect(seen.map(\.occurrence).sorted() == [1, 2, 3, 4])
        let site = PetalDiagnostics.sites(of: .unobservedFailure).first { $0.site.name == name }
        #expect(site?.count == 4)
        #expect(site?.description == "Future<Probe<NoPromiseTag>>, TestError: 4")
    }

    @Test("an abandoned promise is reported as abandoned, and neither its future nor a chain below it as unobserved")
    func abandonmentIsNotAlsoUnobserved() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        func drop() {
            let promise = Promise<Probe<AbandonedTag>>(line: line)
            _ = promise.future.then { $0 }
        }
        drop()
        #expect(abandonedCount(atLine: line) == 1)
        #expect(unobservedFailures(of: Probe<AbandonedTag>.self).isEmpty)
        #expect(unobservedCount(atLine: line) == 0)
    }

    @Test("a failed job nobody observes is reported with the job's creation site")
    func failedJobReportedWithItsSite() {
        _ = probeDiagnostics
        let line = UInt(#line) * 1_000
        func fail() {
            let job = Job<Int, Probe<JobTag>>(line: line)
            #expect(job.fail(with: TestError(5)))
        }
        fail()
        let seen = unobservedFailures(of: Probe<JobTag>.self, atLine: line)
        #expect(seen.count == 1)
        #expect(seen.first?.error as? TestError == TestError(5))
    }
}
