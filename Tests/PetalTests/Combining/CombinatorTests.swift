import Testing

@testable import Petal

// MARK: Support shared by the combinator suites

/// How a test resolves one input of a combinator.
enum InputResolution: Sendable, CustomStringConvertible {
    case fulfil(Int)
    case reject(Int)
    case cancel
    case cancelBecause(Int)

    var outcome: Outcome<Int> {
        switch self {
        case .fulfil(let value): .fulfilled(value)
        case .reject(let code): .rejected(TestError(code))
        case .cancel: .cancelled(indirectError: nil)
        case .cancelBecause(let code): .cancelled(indirectError: TestError(code))
        }
    }

    var description: String { summarize(outcome) }
}

/// Combines futures of `resolutions` with `combinator`, resolving them before it subscribes, or
/// after, one by one in `order` (input order by default). Returns the combined future and how many
/// times it resolved, counted by a callback subscribed before any input resolved in `.resolvedAfter`.
func combined<Result>(
    _ resolutions: [InputResolution],
    _ timing: Timing,
    order: [Int]? = nil,
    _ combinator: ([Future<Int>]) -> Future<Result>
) -> (future: Future<Result>, resolutions: Counter) {
    let promises = resolutions.map { _ in Promise<Int>() }
    let order = order ?? Array(resolutions.indices)
    if timing == .resolvedBefore {
        for index in order { promises[index].resolve(with: resolutions[index].outcome) }
    }
    let future = combinator(promises.map(\.future))
    let count = Counter()
    future.whenResolved { _ in count.increment() }
    if timing == .resolvedAfter {
        for index in order { promises[index].resolve(with: resolutions[index].outcome) }
    }
    return (future, count)
}

/// An error as a short comparable string: `E3` for `TestError(3)`, and the combinators' own
/// errors spelled out with what they carry.
func code(_ error: (any Error)?) -> String {
    switch error {
    case nil: "nil"
    case let error as TestError: "E\(error.code)"
    case let error as AllFuturesFailedError: "all\(error.failures.map { summarize($0) })"
    case let error as EmptyRaceError: "empty(\(error.combinator))"
    case let error?: "\(error)"
    }
}

/// An outcome as a short comparable string: `fulfilled(7)`, `rejected(E1)`, `cancelled(nil)`.
func summarize<Value>(_ outcome: Outcome<Value>?) -> String {
    switch outcome {
    case nil: "pending"
    case .fulfilled(let value)?: "fulfilled(\(value))"
    case .rejected(let error)?: "rejected(\(code(error)))"
    case .cancelled(let indirectError)?: "cancelled(\(code(indirectError)))"
    }
}

/// The failures a test gives every combinator, with the indirect error each must pass on.
let failureCases: [(InputResolution, String)] = [
    (.reject(1), "E1"),
    (.cancel, "nil"),
    (.cancelBecause(2), "E2"),
]

// MARK: fulfillingWhen

@Suite("Combinators: fulfillingWhen")
struct CombinatorFulfillingWhenTests {
    @Test("is fulfilled with every value in input order, whatever order they come in", arguments: Timing.allCases)
    func valuesInInputOrder(timing: Timing) {
        let (future, count) = combined(
            (0..<6).map { .fulfil($0 * 10) }, timing, order: [3, 5, 0, 4, 1, 2], { Future.fulfillingWhen($0) }
        )
        #expect(future.peek()?.value == [0, 10, 20, 30, 40, 50])
        #expect(count.value == 1)
    }

    @Test("stays pending until the last input is fulfilled")
    func pendingUntilTheLast() {
        let promises = (0..<3).map { _ in Promise<Int>() }
        let future = Future.fulfillingWhen(promises.map(\.future))
        promises[2].fulfil(with: 2)
        promises[0].fulfil(with: 0)
        #expect(future.peek() == nil)
        promises[1].fulfil(with: 1)
        #expect(future.peek()?.value == [0, 1, 2])
    }

    @Test("of no futures is already fulfilled with an empty array")
    func noFutures() {
        let future = Future.fulfillingWhen([Future<Int>]())
        #expect(future.peek()?.value == [])
    }

    @Test(
        "is cancelled by a failed input, passing on its error as the indirect error",
        arguments: Timing.allCases, 0..<failureCases.count
    )
    func cancelledByAFailure(timing: Timing, failure: Int) {
        let (resolution, error) = failureCases[failure]
        let (future, count) = combined([.fulfil(1), resolution, .fulfil(3)], timing, { Future.fulfillingWhen($0) })
        #expect(summarize(future.peek()) == "cancelled(\(error))")
        #expect(count.value == 1)
    }

    @Test("the first failure to arrive decides; later failures and fulfilments change nothing")
    func firstFailureWins() {
        let (future, count) = combined(
            [.cancelBecause(1), .fulfil(2), .reject(3), .cancel], .resolvedAfter, order: [2, 0, 1, 3],
            { Future.fulfillingWhen($0) }
        )
        #expect(summarize(future.peek()) == "cancelled(E3)")
        #expect(count.value == 1)
    }

    @Test("among inputs that had already failed, the earliest in input order decides")
    func earliestAlreadyFailedWins() {
        let (future, count) = combined(
            [.fulfil(0), .cancelBecause(1), .reject(2)], .resolvedBefore, order: [2, 0, 1]
        ) { Future.fulfillingWhen($0) }
        #expect(summarize(future.peek()) == "cancelled(E1)")
        #expect(count.value == 1)
    }

    @Test("decides at the first failure without waiting for inputs still pending")
    func decidesWithoutWaiting() {
        let pending = Promise<Int>()
        let failing = Promise<Int>()
        let future = Future.fulfillingWhen([pending.future, failing.future])
        failing.reject(with: TestError(4))
        #expect(summarize(future.peek()) == "cancelled(E4)")
        pending.fulfil(with: 1)
        #expect(summarize(future.peek()) == "cancelled(E4)")
    }

    @Test(
        "subscribes every input, even after an already failed one decided: its failure is observed, and its other consumers can still stop it"
    )
    func answersForEveryInput() {
        let before = Promise<Int>()
        let after = Promise<Int>()
        let stopped = Counter()
        after.cancelWhenRequested { stopped.increment() }
        let future = Future.fulfillingWhen([before.future, .rejected(with: TestError(1)), after.future])
        #expect(summarize(future.peek()) == "cancelled(E1)")
        #expect(before.future.storage.hasWaiters)
        #expect(after.future.storage.hasWaiters)
        // Not linked, as before: its other consumers may still stop it, with no vote missing.
        #expect(stopped.value == 0)
        after.future.requestCancellation()
        #expect(stopped.value == 1)
        before.fulfil(with: 0)
    }

    @Test("takes the same future twice as two inputs")
    func sameFutureTwice() {
        let promise = Promise<Int>()
        let future = Future.fulfillingWhen([promise.future, .fulfilled(with: 1), promise.future])
        promise.fulfil(with: 7)
        #expect(future.peek()?.value == [7, 1, 7])
    }

    @Test("over futures of different types is fulfilled with a tuple in argument order")
    func tupleOfDifferentTypes() {
        let number = Promise<Int>()
        let text = Promise<String>()
        let flag = Promise<Bool>()
        let future: Future<(Int, String, Bool)> = Future.fulfillingWhen(number.future, text.future, flag.future)
        flag.fulfil(with: true)
        number.fulfil(with: 42)
        #expect(future.peek() == nil)
        text.fulfil(with: "petal")
        let values = future.peek()?.value
        #expect(values?.0 == 42)
        #expect(values?.1 == "petal")
        #expect(values?.2 == true)
    }

    @Test("over futures of different types keeps each value in its place, whatever its size and alignment")
    func tupleLayout() {
        struct Wide: Equatable {
            var a: Int64 = 1
            var b: Int8 = 2
            var c: Double = 3
            var d: [Int] = [4]
        }
        let future = Future.fulfillingWhen(
            Future.fulfilled(with: UInt8(7)), .fulfilled(with: "text"), .fulfilled(with: false),
            .fulfilled(with: Wide()), .fulfilled(with: Int16(-3)), .fulfilled(with: [1, 2] as [Int]),
            .fulfilled(with: Optional<Int8>.none), .fulfilled(with: 2.5)
        )
        let values = future.peek()?.value
        #expect(values?.0 == 7)
        #expect(values?.1 == "text")
        #expect(values?.2 == false)
        #expect(values?.3 == Wide())
        #expect(values?.4 == -3)
        #expect(values?.5 == [1, 2])
        #expect(values?.6 == .some(nil))
        #expect(values?.7 == 2.5)
    }

    @Test(
        "over futures of different types is cancelled by the first failure, with its error",
        arguments: Timing.allCases, 0..<failureCases.count
    )
    func tupleCancelledByAFailure(timing: Timing, failure: Int) {
        let (resolution, error) = failureCases[failure]
        let number = Promise<Int>()
        let text = Promise<String>()
        let failing = Promise<Double>()
        let later = Promise<Bool>()
        func resolveAll() {
            number.fulfil(with: 1)
            failing.resolve(with: resolution.outcome.map { Double($0) })
            later.reject(with: TestError(9))
            text.fulfil(with: "late")
        }
        if timing == .resolvedBefore { resolveAll() }
        let future = Future.fulfillingWhen(number.future, text.future, failing.future, later.future)
        let count = Counter()
        future.whenResolved { _ in count.increment() }
        if timing == .resolvedAfter { resolveAll() }
        #expect(summarize(future.peek()) == "cancelled(\(error))")
        #expect(count.value == 1)
    }

    @Test("of one future of another type is a future of its value")
    func tupleOfOne() {
        let promise = Promise<String>()
        let future: Future<String> = Future.fulfillingWhen(promise.future)
        promise.fulfil(with: "alone")
        #expect(future.peek()?.value == "alone")
    }

    @Test("of no futures in the tuple form is already fulfilled with the empty tuple")
    func tupleOfNone() {
        let future: Future<Void> = Future.fulfillingWhen()
        #expect(future.peek()?.isFulfilled == true)
    }
}

extension Outcome {
    /// The same outcome with its value transformed; for tests that need inputs of other types.
    func map<Other>(_ transform: (Value) -> Other) -> Outcome<Other> {
        switch self {
        case .fulfilled(let value): .fulfilled(transform(value))
        case .rejected(let error): .rejected(error)
        case .cancelled(let indirectError): .cancelled(indirectError: indirectError)
        }
    }
}

private enum CombinedFailuresTag {}

/// A combinator answers for every input handed to it: the failures of the inputs after the one
/// that decided are not reported as unobserved when the inputs are dropped.
@Suite("Combinators: the inputs' failures are the combinator's")
struct CombinatorObservationTests {
    @Test("the inputs that failed after an already failed one are not reported unobserved")
    func laterFailuresObserved() {
        _ = probeDiagnostics
        dropFailedFanOut()
        #expect(unobservedFailures(of: Probe<CombinedFailuresTag>.self).isEmpty)
    }
}

/// A fan-out of three inputs already rejected and one rejected later, its result observed and
/// everything dropped. Not inlined, so that every future is freed (and any report made) when it
/// returns.
@inline(never)
private func dropFailedFanOut() {
    let late = Promise<Probe<CombinedFailuresTag>>()
    let inputs: [Future<Probe<CombinedFailuresTag>>] = [
        .rejected(with: TestError(1)), .rejected(with: TestError(2)), late.future, .rejected(with: TestError(3)),
    ]
    _ = Future.fulfillingWhen(inputs).peek()
    late.reject(with: TestError(4))
}
