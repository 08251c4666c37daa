#if Tracing
    import Dispatch
    import Instrumentation
    import Petal
    import PetalTracing
    import Synchronization
    import Testing

    /// The trace a test's request belongs to, as a `ServiceContext` value.
    private enum TraceID: ServiceContextKey {
        typealias Value = String
    }

    /// A `ServiceContext` carrying `trace`.
    private func context(_ trace: String) -> ServiceContext {
        var context = ServiceContext.topLevel
        context[TraceID.self] = trace
        return context
    }

    /// The trace current where it is called, if any.
    private func currentTrace() -> String? {
        ServiceContext.current?[TraceID.self]
    }

    /// What each closure saw, in the order they ran.
    private final class Sightings: Sendable {
        private let seen = Mutex<[String]>([])

        func record(_ step: String) {
            let trace = currentTrace() ?? "none"
            seen.withLock { $0.append("\(step):\(trace)") }
        }

        var all: [String] { seen.withLock { $0 } }
    }

    /// Runs `body` on a new thread with no `ServiceContext` of its own, and waits for it: a
    /// resolving thread that knows nothing of the request, as a backend's would.
    private func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detach {
            precondition(currentTrace() == nil)
            body()
            done.signal()
        }
        done.wait()
    }

    private enum Thread {
        static func detach(_ body: @escaping @Sendable () -> Void) {
            DispatchQueue(label: "petal.tracing.resolver").async(execute: body)
        }
    }

    private struct BackendError: Error {}

    /// Installs the carrier once for the whole test process (this target holds only these tests).
    private let carrierInstalled: Void = CallbackContext.carryServiceContext()

    @Suite("PetalTracing: a trace survives every step")
    struct ServiceContextCarryingTests {
        @Test("then, recover, an all and a timeout, inline and across a queue, each run in the subscriber's trace")
        func traceSurvivesTheChain() {
            carrierInstalled
            let seen = Sightings()
            let first = Promise<Int>()
            let second = Promise<Int>()
            let failing = Promise<Int>()
            let clock = DeadlineClock.manual()
            let never = Promise<Int>()
            let result = ServiceContext.withValue(context("request-1")) { () -> Future<Int> in
                let left = first.future
                    .then {
                        seen.record("then"); return $0 + 1
                    }
                    .then(on: DispatchQueue(label: "petal.tracing.hop")) {
                        seen.record("then on a queue"); return $0 * 10
                    }
                let right = failing.future
                    .then { _ -> Int in
                        seen.record("skipped"); return 0
                    }
                    .recover { _ in
                        seen.record("recover"); return 5
                    }
                let late = never.future.timeout(after: .seconds(1), clock: clock)
                    .recover { _ in
                        seen.record("recover after a timeout"); return 100
                    }
                let all = Future.fulfillingWhen([left, right, second.future, late])
                    .then { values in
                        seen.record("then after all"); return values.reduce(0, +)
                    }
                return all.timeout(after: .seconds(3_600), clock: clock)
                    .then {
                        seen.record("then after a timeout"); return $0
                    }
            }
            // Resolved and timed out from threads that know nothing of the request.
            onAnotherThread { first.fulfil(with: 1) }
            onAnotherThread { failing.reject(with: BackendError()) }
            onAnotherThread { second.fulfil(with: 7) }
            onAnotherThread { clock.advance(by: .seconds(1)) }
            #expect(result.wait().value == 20 + 5 + 7 + 100)
            withExtendedLifetime(never) {}
            #expect(
                seen.all.sorted() == [
                    "recover after a timeout:request-1", "recover:request-1", "then after a timeout:request-1",
                    "then after all:request-1", "then on a queue:request-1", "then:request-1",
                ])
        }

        @Test("observers run in the trace of their subscriber, each in its own, on whatever thread resolves")
        func observersKeepTheirOwnTrace() {
            carrierInstalled
            let seen = Sightings()
            let promise = Promise<Int>()
            let observed = DispatchGroup()
            for trace in ["a", "b", "c"] {
                observed.enter()
                ServiceContext.withValue(context(trace)) {
                    promise.future.whenFulfilled { _ in
                        seen.record("fulfilled")
                        observed.leave()
                    }
                }
            }
            observed.enter()
            promise.future.whenResolved { _ in
                seen.record("no trace")
                observed.leave()
            }
            onAnotherThread { promise.fulfil(with: 1) }
            observed.wait()
            #expect(seen.all == ["fulfilled:a", "fulfilled:b", "fulfilled:c", "no trace:none"])
        }

        @Test("a retry's later attempts and a cancellation handler run in the trace they were set up in")
        func retriesAndHandlersKeepTheTrace() {
            carrierInstalled
            let seen = Sightings()
            let clock = DeadlineClock.manual()
            let attempts = Atomic(0)
            let asked = Promise<Int>()
            let retried = ServiceContext.withValue(context("job-9")) { () -> Future<Int> in
                asked.whenCancellationRequested { [weak asked] in
                    seen.record("cancellation handler")
                    asked?.cancel()
                }
                return Future<Int>.retrying(RetryPolicy(attempts: 3, initialDelay: .seconds(1)), clock: clock) {
                    seen.record("attempt")
                    let number = attempts.add(1, ordering: .relaxed).newValue
                    return number < 3 ? .rejected(with: BackendError()) : .fulfilled(with: number)
                }
            }
            onAnotherThread { clock.advance(by: .seconds(2)) }
            #expect(retried.wait().value == 3)
            onAnotherThread { asked.future.requestCancellation() }
            #expect(seen.all == ["attempt:job-9", "attempt:job-9", "attempt:job-9", "cancellation handler:job-9"])
        }
    }
#endif
