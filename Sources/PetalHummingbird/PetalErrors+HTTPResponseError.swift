// The Hummingbird trait's, as the rest of the module.
#if Hummingbird
    import HTTPTypes
    import Hummingbird
    import Petal

    /// How Petal's refusals read as HTTP answers, so that a route can let them through its `throw`:
    /// Hummingbird answers a thrown `HTTPResponseError` with its status instead of 500.
    ///
    /// Why here: a route's future is usually a chain (a limit's run, a fan-out, a timeout by the
    /// request's deadline), and what ended it reaches the `await` either as it is or as the
    /// indirect error of the cancellation it caused downstream. Mapping each by hand in every
    /// route is the code every service would repeat, and get wrong for the wrapped case.
    enum PetalRefusal {
        /// The status for `error`, following a cancellation's indirect errors to the cause: 503
        /// for a limit's refusal or a cancellation with no cause (a request asked to stop: the
        /// server is draining, or the client left), 504 for a deadline or timeout, the status of
        /// any other HTTP error, and 500 for the rest.
        static func status(of error: any Error) -> HTTPResponse.Status {
            var cause: any Error = error
            // Bounded: a cancellation's cause chain is as long as the chain of futures it crossed.
            while let cancelled = cause as? FutureCancelledError {
                guard let indirect = cancelled.indirectError else { return .serviceUnavailable }
                cause = indirect
            }
            switch cause {
            case is ConcurrencyLimitExceededError: return .serviceUnavailable
            case is FutureTimeoutError: return .gatewayTimeout
            case let http as HTTPResponseError: return http.status
            default: return .internalServerError
            }
        }

        /// A plain-text answer with `status` and one line saying why.
        static func response(_ status: HTTPResponse.Status) -> Response {
            let reason: String
            switch status {
            case .serviceUnavailable: reason = "the service is not taking this request now"
            case .gatewayTimeout: reason = "the request's deadline passed"
            default: reason = status.reasonPhrase
            }
            return Response(
                status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: reason + "\n")))
        }
    }

    /// A limit's refusal, thrown out of a route, is answered 503 Service Unavailable.
    extension ConcurrencyLimitExceededError: HTTPResponseError {
        /// 503 Service Unavailable: the limit was full.
        public var status: HTTPResponse.Status { .serviceUnavailable }

        /// A plain-text 503.
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            PetalRefusal.response(status)
        }
    }

    /// A timeout or a request's deadline, thrown out of a route, is answered 504 Gateway Timeout.
    extension FutureTimeoutError: HTTPResponseError {
        /// 504 Gateway Timeout: the work did not answer in time.
        public var status: HTTPResponse.Status { .gatewayTimeout }

        /// A plain-text 504.
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            PetalRefusal.response(status)
        }
    }

    /// A cancellation thrown out of a route is answered as its cause is: 503 for a limit's
    /// refusal, 504 for a deadline or a timeout, the status of any other HTTP error, 503 when
    /// nothing caused it but a request to stop (a draining server), 500 otherwise.
    extension FutureCancelledError: HTTPResponseError {
        /// The status of the cancellation's cause (see the extension's description).
        public var status: HTTPResponse.Status { PetalRefusal.status(of: self) }

        /// A plain-text answer with ``status``.
        public func response(from request: Request, context: some RequestContext) throws -> Response {
            PetalRefusal.response(status)
        }
    }
#endif
