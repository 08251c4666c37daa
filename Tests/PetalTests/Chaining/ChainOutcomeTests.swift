import Testing

@testable import Petal

/// Every chaining method against every receiver outcome, resolved before and after chaining:
/// the one failure rule (own work fails → rejected; downstream of a failure → cancelled with
/// its error as the indirect error, and no closure runs).
@Suite("Chaining: every method, every receiver outcome")
struct ChainOutcomeTests {
    @Test(
        "then with a value transforms a fulfilment and passes failures down untouched",
        arguments: Receiver.allCases, Timing.allCases)
    func thenValue(receiver: Receiver, timing: Timing) {
        let ran = Counter()
        let result = chained(onto: receiver, timing) { future in
            future.then { value -> String in
                ran.increment()
                return "v\(value)"
            }
        }
        #expect(result == (receiver.passedDown ?? "fulfilled(v7)"))
        #expect(ran.value == (receiver == .fulfilled ? 1 : 0))
    }

    @Test("then rejects with what its closure throws", arguments: Timing.allCases)
    func thenThrows(timing: Timing) {
        let result = chained(onto: .fulfilled, timing) { future in
            future.then { _ -> Int in throw TestError(9) }
        }
        #expect(result == "rejected(\(TestError(9)))")
    }

    @Test("then with a future resolves exactly as the returned future", arguments: Receiver.allCases)
    func thenFutureMirrorsReturnedFuture(returned: Receiver) {
        let inner = Promise<Int>()
        let chainedFuture = Future<Int>.fulfilled(with: 1).then { _ in inner.future }
        #expect(chainedFuture.peek() == nil)
        inner.resolve(with: returned.outcome)
        let expected = returned == .rejected ? "rejected(\(Receiver.rejection))" : returned.passedDown ?? "fulfilled(7)"
        #expect(describe(chainedFuture.peek()) == expected)
    }

    @Test(
        "then with a future passes receiver failures down and rejects on a throw",
        arguments: Receiver.allCases, Timing.allCases)
    func thenFuture(receiver: Receiver, timing: Timing) {
        let ran = Counter()
        let result = chained(onto: receiver, timing) { future in
            future.then { value -> Future<String> in
                ran.increment()
                return .fulfilled(with: "f\(value)")
            }
        }
        #expect(result == (receiver.passedDown ?? "fulfilled(f7)"))
        #expect(ran.value == (receiver == .fulfilled ? 1 : 0))
        let thrown = chained(onto: .fulfilled, timing) { future in
            future.then { _ -> Future<Int> in throw TestError(9) }
        }
        #expect(thrown == "rejected(\(TestError(9)))")
    }

    @Test("additionally pairs the value with the new result", arguments: Receiver.allCases, Timing.allCases)
    func additionallyValue(receiver: Receiver, timing: Timing) {
        let ran = Counter()
        let result = chained(onto: receiver, timing) { future in
            future.additionally { value -> String in
                ran.increment()
                return "n\(value)"
            }
            .then { pair in "\(pair.0)+\(pair.1)" }
        }
        #expect(result == (receiver.passedDown ?? "fulfilled(7+n7)"))
        #expect(ran.value == (receiver == .fulfilled ? 1 : 0))
        let thrown = chained(onto: .fulfilled, timing) { future in
            future.additionally { _ -> Int in throw TestError(9) }.then { $0.1 }
        }
        // The additionally step was rejected, so the then after it is cancelled by the rule.
        #expect(thrown == "cancelled(\(TestError(9)))")
    }

    @Test(
        "additionally with a future pairs the value with that future's result, or mirrors its failure",
        arguments: Receiver.allCases, Timing.allCases)
    func additionallyFuture(receiver: Receiver, timing: Timing) {
        let result = chained(onto: receiver, timing) { future in
            future.additionally { value in Future<String>.fulfilled(with: "n\(value)") }
                .then { pair in "\(pair.0)+\(pair.1)" }
        }
        #expect(result == (receiver.passedDown ?? "fulfilled(7+n7)"))
        for returned in Receiver.allCases where returned != .fulfilled {
            let failed = Future<Int>.fulfilled(with: 1).additionally { _ in Future(resolvedWith: returned.outcome) }
            let expected = returned == .rejected ? "rejected(\(Receiver.rejection))" : returned.passedDown!
            #expect(describe(failed.peek()) == expected)
        }
        let thrown = Future<Int>.fulfilled(with: 1).additionally { _ -> Future<Int> in throw TestError(9) }
        #expect(describe(thrown.peek()) == "rejected(\(TestError(9)))")
    }

    @Test(
        "catch sees rejections and indirect errors, never fulfilments or bare cancellations, and returns the receiver",
        arguments: Receiver.allCases, Timing.allCases)
    func catchObserves(receiver: Receiver, timing: Timing) {
        let seen = Recorder<String>()
        let direct = Recorder<String>()
        let promise = Promise<Int>()
        if timing == .resolvedBefore { promise.resolve(with: receiver.outcome) }
        let returned = promise.future.catch { seen.record("\($0)") }
        promise.future.catch(includingIndirectErrors: false) { direct.record("\($0)") }
        if timing == .resolvedAfter { promise.resolve(with: receiver.outcome) }
        #expect(describe(returned.peek()) == describe(promise.future.peek()))
        #expect(seen.events == (receiver.error.map { ["\($0)"] } ?? []))
        #expect(direct.events == (receiver == .rejected ? ["\(Receiver.rejection)"] : []))
    }

    @Test("recover replaces failures it sees with its value", arguments: Receiver.allCases, Timing.allCases)
    func recoverOptional(receiver: Receiver, timing: Timing) {
        let seen = Recorder<String>()
        let result = chained(onto: receiver, timing) { future in
            future.recover { error in
                seen.record("\(error)")
                return 42
            }
        }
        let expected: String
        switch receiver {
        case .fulfilled: expected = "fulfilled(7)"
        case .rejected, .cancelledWithError: expected = "fulfilled(42)"
        case .cancelledWithoutError: expected = "cancelled(nil)"
        }
        #expect(result == expected)
        #expect(seen.events == (receiver.error.map { ["\($0)"] } ?? []))
    }

    @Test(
        "recover returning nil, or excluding indirect errors, lets the failure travel on",
        arguments: Receiver.allCases, Timing.allCases)
    func recoverDeclines(receiver: Receiver, timing: Timing) {
        let declined = chained(onto: receiver, timing) { future in future.recover { _ in nil } }
        #expect(declined == (receiver.passedDown ?? "fulfilled(7)"))
        let directOnly = chained(onto: receiver, timing) { future in
            future.recover(includingIndirectErrors: false) { _ in 42 }
        }
        #expect(directOnly == (receiver == .rejected ? "fulfilled(42)" : receiver.passedDown ?? "fulfilled(7)"))
        let thrown = chained(onto: receiver, timing) { future in
            future.recover { _ -> Int? in throw TestError(9) }
        }
        #expect(thrown == (receiver.error == nil ? receiver.passedDown ?? "fulfilled(7)" : "rejected(\(TestError(9)))"))
    }

    @Test(
        "recover with an alternative value evaluates it only when needed", arguments: Receiver.allCases, Timing.allCases
    )
    func recoverAutoclosure(receiver: Receiver, timing: Timing) {
        let evaluated = Counter()
        @Sendable func fallback() -> Int {
            evaluated.increment()
            return 42
        }
        let result = chained(onto: receiver, timing) { future in future.recover(using: fallback()) }
        let recovers = receiver.error != nil
        #expect(result == (recovers ? "fulfilled(42)" : receiver.passedDown ?? "fulfilled(7)"))
        #expect(evaluated.value == (recovers ? 1 : 0))
    }

    @Test("recover with a future resolves exactly as that future", arguments: Receiver.allCases, Timing.allCases)
    func recoverFuture(receiver: Receiver, timing: Timing) {
        let result = chained(onto: receiver, timing) { future in
            future.recover { _ in Future<Int>.fulfilled(with: 42) }
        }
        let recovers = receiver.error != nil
        #expect(result == (recovers ? "fulfilled(42)" : receiver.passedDown ?? "fulfilled(7)"))
        let mirrored = chained(onto: .rejected, timing) { future in
            future.recover { _ in Future<Int>.rejected(with: TestError(9)) }
        }
        #expect(mirrored == "rejected(\(TestError(9)))")
        let thrown = chained(onto: .rejected, timing) { future in
            future.recover { _ -> Future<Int> in throw TestError(8) }
        }
        #expect(thrown == "rejected(\(TestError(8)))")
    }

    @Test("mapError changes the error that travels down", arguments: Receiver.allCases, Timing.allCases)
    func mapError(receiver: Receiver, timing: Timing) {
        let result = chained(onto: receiver, timing) { future in
            future.mapError { error in TestError((error as? TestError)!.code + 100) }
        }
        let expected: String
        switch receiver {
        case .fulfilled: expected = "fulfilled(7)"
        case .rejected: expected = "cancelled(\(TestError(101)))"
        case .cancelledWithError: expected = "cancelled(\(TestError(102)))"
        case .cancelledWithoutError: expected = "cancelled(nil)"
        }
        #expect(result == expected)
    }

    @Test(
        "always runs whatever the outcome and passes the outcome on by the rule",
        arguments: Receiver.allCases, Timing.allCases)
    func always(receiver: Receiver, timing: Timing) {
        let ran = Counter()
        let result = chained(onto: receiver, timing) { future in future.always { ran.increment() } }
        #expect(ran.value == 1)
        #expect(result == (receiver.passedDown ?? "fulfilled(7)"))
        let thrown = chained(onto: receiver, timing) { future in future.always { throw TestError(9) } }
        #expect(thrown == "rejected(\(TestError(9)))")
    }

    @Test(
        "ensure passes accepted values, rejects refused ones, and passes failures down",
        arguments: Receiver.allCases, Timing.allCases)
    func ensure(receiver: Receiver, timing: Timing) {
        let accepted = chained(onto: receiver, timing) { future in future.ensure { $0 == 7 } }
        #expect(accepted == (receiver.passedDown ?? "fulfilled(7)"))
        let refused = chained(onto: receiver, timing) { future in
            future.ensure(orRejectWith: TestError(5)) { $0 > 100 }
        }
        #expect(refused == (receiver.passedDown ?? "rejected(\(TestError(5)))"))
        let thrown = chained(onto: receiver, timing) { future in future.ensure { _ in throw TestError(9) } }
        #expect(thrown == (receiver.passedDown ?? "rejected(\(TestError(9)))"))
    }

    @Test("ensure's default rejection names the call site")
    func ensureDefaultError() throws {
        let line: UInt = #line + 1
        let refused = Future<Int>.fulfilled(with: 1).ensure { $0 > 1 }
        let error = try #require(refused.peek()?.error as? UnmetConditionError)
        #expect(error.line == line)
        #expect(error.fileID == #fileID)
        #expect("\(error)".contains("ChainOutcomeTests.swift:\(line)"))
    }

    @Test(
        "a flattened future resolves as the inner future, or by the rule when the outer fails",
        arguments: Receiver.allCases, Timing.allCases)
    func flattened(receiver: Receiver, timing: Timing) {
        let outer = Promise<Future<Int>>()
        let inner = Promise<Int>()
        if timing == .resolvedBefore { inner.resolve(with: receiver.outcome) }
        let flat = outer.future.flattened()
        outer.fulfil(with: inner.future)
        if timing == .resolvedAfter { inner.resolve(with: receiver.outcome) }
        let mirrored = receiver == .rejected ? "rejected(\(Receiver.rejection))" : receiver.passedDown ?? "fulfilled(7)"
        #expect(describe(flat.peek()) == mirrored)

        let failedOuter = Promise<Future<Int>>()
        let flatOfFailed = failedOuter.future.flattened()
        switch receiver.outcome {
        case .fulfilled: failedOuter.fulfil(with: .fulfilled(with: 7))
        case .rejected(let error): failedOuter.reject(with: error)
        case .cancelled(let indirectError): failedOuter.cancel(withIndirectError: indirectError)
        }
        #expect(describe(flatOfFailed.peek()) == (receiver.passedDown ?? "fulfilled(7)"))
    }

    @Test("a promise resolved from another future mirrors it exactly", arguments: Receiver.allCases, Timing.allCases)
    func resolveFrom(receiver: Receiver, timing: Timing) {
        let source = Promise<Int>()
        let mirror = Promise<Int>()
        if timing == .resolvedBefore { source.resolve(with: receiver.outcome) }
        mirror.resolve(from: source.future)
        #expect(mirror.future.isResolved == (timing == .resolvedBefore))
        if timing == .resolvedAfter { source.resolve(with: receiver.outcome) }
        #expect(describe(mirror.future.peek()) == describe(source.future.peek()))
    }

    @Test("a promise resolved from its own future ignores it: nothing is subscribed, and it resolves as usual")
    func resolveFromItself() {
        let promise = Promise<Int>()
        promise.resolve(from: promise.future)
        #expect(!promise.future.storage.hasWaiters)
        #expect(!promise.isResolved)
        promise.fulfil(with: 3)
        #expect(promise.future.peek()?.value == 3)
    }
}
