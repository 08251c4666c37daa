#if Hummingbird
    import HTTPTypes
    import Hummingbird
    import Petal
    import PetalHummingbird
    import Testing

    /// Petal's refusals read as HTTP answers when a route lets them through its `throw`, wrapped
    /// in the cancellations they caused downstream or not.
    @Suite("Petal's errors as HTTP answers")
    struct PetalRefusalStatusTests {
        static let refusal = ConcurrencyLimitExceededError(maximum: 8, queue: 2)
        static let timeout = FutureTimeoutError(deadline: .now)

        /// The status Hummingbird answers a thrown `error` with: its own if it is an HTTP error.
        static func status(_ error: any Error) -> HTTPResponse.Status? {
            (error as? any HTTPResponseError)?.status
        }

        @Test("a limit's refusal is 503 and a timeout 504, as they are")
        func direct() {
            #expect(Self.status(Self.refusal) == .serviceUnavailable)
            #expect(Self.status(Self.timeout) == .gatewayTimeout)
        }

        @Test("a cancellation answers as its cause, however deep the cause is")
        func wrapped() {
            let once = FutureCancelledError(indirectError: Self.refusal)
            let twice = FutureCancelledError(indirectError: FutureCancelledError(indirectError: Self.timeout))
            #expect(Self.status(once) == .serviceUnavailable)
            #expect(Self.status(twice) == .gatewayTimeout)
            #expect(Self.status(FutureCancelledError(indirectError: HTTPError(.notFound))) == .notFound)
        }

        @Test("a cancellation without a cause (a request to stop) is 503; an unknown cause is 500")
        func uncaused() {
            struct Unknown: Error {}
            #expect(Self.status(FutureCancelledError(indirectError: nil)) == .serviceUnavailable)
            #expect(Self.status(FutureCancelledError(indirectError: Unknown())) == .internalServerError)
        }

        @Test("a refused fan-out awaited through a request's timeout reaches the route as a 503")
        func throughAChain() async {
            let limit = ConcurrencyLimit(maximum: 1)
            let holder = Promise<Int>()
            let held = limit.run { holder.future }
            let reply = limit.run { Future.fulfilled(with: 1) }.timeout(after: .seconds(60))
            await #expect(throws: FutureCancelledError.self) { try await reply.value }
            let outcome = await reply.outcome
            guard case .cancelled(let indirect) = outcome else {
                Issue.record("expected a cancellation, got \(outcome)")
                return
            }
            #expect(Self.status(FutureCancelledError(indirectError: indirect)) == .serviceUnavailable)
            holder.fulfil(with: 0)
            #expect(held.peek()?.value == 0)
        }
    }
#endif
