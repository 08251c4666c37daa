// The NIO trait's, as the rest of the module (HTTPTypes comes with swift-nio-extras' NIOHTTPTypes).
#if NIO
    import HTTPTypes
    import Petal

    /// When a request arrived, as ``LoadShedder`` stamps it into the request's header fields, so
    /// that what runs later (a middleware setting the request's Petal `Deadline`) counts the
    /// request's budget from its arrival, not from when a task got round to it.
    ///
    /// Why a header: it is the one thing an HTTP server passes from a channel handler to the
    /// request's handler in every framework (Hummingbird's request context is made after the
    /// handlers ran, and holds nothing of theirs). The value is the nanoseconds since a reference
    /// instant of this process, meaningless to anyone else; ``LoadShedder`` removes any such field
    /// a client sent before stamping its own.
    public enum RequestArrival {
        /// The field the arrival is stamped in: `petal-arrival`.
        public static let fieldName = HTTPField.Name("petal-arrival")!

        /// The instant the offsets count from: taken once, at the first stamp or read.
        static let reference = ContinuousClock.now

        /// The arrival stamped in `fields`, or `nil` when there is none or it is not a stamp
        /// (only the process's own stamps can be read: a client's is removed before it is made).
        ///
        /// An arrival read here is a client's own claim if nothing in the pipeline stamped the
        /// request: a reader that extends a deadline from it must not trust an arrival later
        /// than now (PetalHummingbird's `DeadlineMiddleware` takes the earlier of the two).
        public static func instant(in fields: HTTPFields) -> ContinuousClock.Instant? {
            guard let text = fields[fieldName], let nanoseconds = offset(text) else { return nil }
            return reference.advanced(by: .nanoseconds(nanoseconds))
        }

        /// `fields` with every `petal-arrival` field replaced by one stamp of `instant`.
        static func stamp(_ instant: ContinuousClock.Instant, into fields: inout HTTPFields) {
            let (seconds, attoseconds) = reference.duration(to: instant).components
            fields[fieldName] = String(seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000)
        }

        /// The nanoseconds a stamp says: an optional minus (an instant before the reference: a
        /// manual clock's) and one to nineteen ASCII digits that fit an `Int64`.
        static func offset(_ text: String) -> Int64? {
            var digits = Substring(text).utf8
            let negative = digits.first == UInt8(ascii: "-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 19 else { return nil }
            var value: Int64 = 0
            for byte in digits {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                value = sum
            }
            return negative ? -value : value
        }
    }
#endif
