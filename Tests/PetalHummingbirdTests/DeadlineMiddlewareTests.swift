#if Hummingbird
    import HTTPTypes
    import Hummingbird
    import Logging
    import NIOCore
    import NIOEmbedded
    import NIOHTTPTypes
    import Petal
    import PetalHummingbird
    import PetalNIO
    import Testing

    /// DeadlineMiddleware run directly, with requests stamped by a real LoadShedder: the
    /// deadline bound for the handler, what shortens it, and the 504 without the handler.
    @Suite("DeadlineMiddleware")
    struct DeadlineMiddlewareTests {
        typealias Middleware = DeadlineMiddleware<BasicRequestContext>

        /// A request head as a LoadShedder on `clock` passes it on: stamped with its arrival now.
        static func stamped(_ fields: HTTPFields = [:], on clock: DeadlineClock) throws -> HTTPRequest {
            let channel = EmbeddedChannel(handler: LoadShedder(limit: ConcurrencyLimit(maximum: 1), clock: clock))
            defer { _ = try? channel.finish() }
            let head = HTTPRequest(
                method: .get, scheme: "http", authority: "petal.test", path: "/", headerFields: fields)
            try channel.writeInbound(HTTPRequestPart.head(head))
            guard case .head(let passed) = try channel.readInbound(as: HTTPRequestPart.self) else {
                throw ShedderPassedNothing()
            }
            return passed
        }

        struct ShedderPassedNothing: Error {}

        static let grpcTimeout = HTTPField.Name("grpc-timeout")!

        /// Runs `middleware` on `head`; returns the response and the deadline the handler saw
        /// (`nil` inside if it saw none, and `nil` outside if it did not run).
        static func run(
            _ middleware: Middleware, _ head: HTTPRequest,
            handler: @escaping @Sendable () throws -> Void = {}
        ) async throws -> (Response, Deadline??) {
            let context = BasicRequestContext(
                source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: Logger(label: "test")))
            let seen = PosixLock<Deadline??>(nil)
            let response = try await middleware.handle(
                Request(head: head, body: RequestBody(buffer: ByteBuffer())), context: context
            ) { _, _ in
                seen.withLock { $0 = .some(Deadline.current) }
                try handler()
                return Response(status: .ok)
            }
            return (response, seen.withLock { $0 })
        }

        @Test("the handler runs inside the deadline of the request's arrival plus the budget")
        func deadlineFromArrival() async throws {
            let clock = DeadlineClock.manual()
            let arrival = clock.now
            let head = try Self.stamped(on: clock)
            // Time spent between the loop and the middleware counts against the budget.
            clock.advance(by: .milliseconds(7))
            let (response, seen) = try await Self.run(Middleware(budget: .milliseconds(20), clock: clock), head)
            #expect(response.status == .ok)
            #expect(seen??.instant == arrival.advanced(by: .milliseconds(20)))
            #expect(seen??.clock === clock)
        }

        @Test("without an arrival stamp the budget counts from when the middleware runs")
        func deadlineWithoutStamp() async throws {
            let clock = DeadlineClock.manual()
            let head = HTTPRequest(method: .get, scheme: "http", authority: "petal.test", path: "/")
            let (_, seen) = try await Self.run(Middleware(budget: .milliseconds(20), clock: clock), head)
            #expect(seen??.instant == clock.now.advanced(by: .milliseconds(20)))
        }

        @Test("a stamp later than now, a forgery, counts as now")
        func futureStampIsNow() async throws {
            let clock = DeadlineClock.manual()
            let head = try Self.stamped(on: .manual(startingAt: clock.now.advanced(by: .seconds(3_600))))
            let (_, seen) = try await Self.run(Middleware(budget: .milliseconds(20), clock: clock), head)
            #expect(seen??.instant == clock.now.advanced(by: .milliseconds(20)))
        }

        @Test("grpc-timeout shortens the deadline, counted from arrival, and never extends it")
        func grpcTimeoutShortens() async throws {
            let clock = DeadlineClock.manual()
            let arrival = clock.now
            let middleware = Middleware(budget: .milliseconds(20), clock: clock)
            let shorter = try Self.stamped([Self.grpcTimeout: "5000u"], on: clock)
            let longer = try Self.stamped([Self.grpcTimeout: "1S"], on: clock)
            let hostile = try Self.stamped([Self.grpcTimeout: "-1S"], on: clock)
            clock.advance(by: .milliseconds(1))
            #expect(try await Self.run(middleware, shorter).1??.instant == arrival.advanced(by: .milliseconds(5)))
            #expect(try await Self.run(middleware, longer).1??.instant == arrival.advanced(by: .milliseconds(20)))
            #expect(try await Self.run(middleware, hostile).1??.instant == arrival.advanced(by: .milliseconds(20)))
            let ignoring = Middleware(budget: .milliseconds(20), honouringGRPCTimeout: false, clock: clock)
            #expect(try await Self.run(ignoring, shorter).1??.instant == arrival.advanced(by: .milliseconds(20)))
        }

        @Test("a request whose deadline has passed on entry is answered 504 and its handler never runs")
        func passedIsRefused() async throws {
            let clock = DeadlineClock.manual()
            let head = try Self.stamped(on: clock)
            clock.advance(by: .milliseconds(20))
            let (response, seen) = try await Self.run(Middleware(budget: .milliseconds(20), clock: clock), head)
            #expect(response.status == .gatewayTimeout)
            #expect(seen == nil)
            let zero = try Self.stamped([Self.grpcTimeout: "0n"], on: clock)
            let (zeroResponse, zeroSeen) = try await Self.run(Middleware(budget: .seconds(1), clock: clock), zero)
            #expect(zeroResponse.status == .gatewayTimeout)
            #expect(zeroSeen == nil)
        }

        @Test("the deadline's own timeout error, let through by the handler, is answered 504; another error is thrown")
        func deadlineErrorIs504() async throws {
            let clock = DeadlineClock.manual()
            let middleware = Middleware(budget: .milliseconds(20), clock: clock)
            let head = try Self.stamped(on: clock)
            let (response, _) = try await Self.run(middleware, head) {
                throw Deadline.current!.exceededError
            }
            #expect(response.status == .gatewayTimeout)
            let other = FutureTimeoutError(deadline: clock.now.advanced(by: .milliseconds(3)))
            await #expect(throws: FutureTimeoutError.self) {
                _ = try await Self.run(middleware, head) { throw other }
            }
        }

        @Test("a success returned after the deadline is answered 504; one returned in time, as it is")
        func lateSuccessIs504() async throws {
            let clock = DeadlineClock.manual()
            let middleware = Middleware(budget: .milliseconds(20), clock: clock)
            let head = try Self.stamped(on: clock)
            let (inTime, _) = try await Self.run(middleware, head) { clock.advance(by: .milliseconds(19)) }
            #expect(inTime.status == .ok)
            let late = try Self.stamped(on: clock)
            let (answer, _) = try await Self.run(middleware, late) { clock.advance(by: .milliseconds(20)) }
            #expect(answer.status == .gatewayTimeout)
        }
    }
#endif
