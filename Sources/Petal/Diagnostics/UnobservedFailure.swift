/// A failed future was freed without anyone having observed its failure: a fire-and-forget
/// chain failed, and nothing said so.
///
/// A failure is a rejection, or a cancellation with an indirect error (a plain cancellation is
/// not reported). It is *observed* once Petal hands it to someone:
/// - a callback or step that receives it: `whenResolved`, `whenRejected` on a rejection,
///   `whenCancelled` on a cancellation, `whenAnyError`, `catch`, `recover` and `mapError`, the
///   chaining and combining methods, a promise resolved from the future, a job chained after it;
///   `whenFulfilled` alone does not observe a failure;
/// - a read of the outcome: ``Future/peek()``, `wait`, `await` and `value`, a timeout.
///
/// A step that passes a failure on (`then` and the other value steps, `mapError`, a `recover`
/// that does not take indirect errors, on a cancellation) observes its upstream's failure and
/// hands it to its own future, which is then reported if nobody observes *it*: a chain of `then`
/// steps nobody observes is reported once, at its end, not at every link. A step whose closure
/// ran because of the failure (`always`, a `recover` that declines) marks the failure it passes
/// on observed, so a chain that ends in `always` or `catch` is never reported (a `catch` that
/// does not take indirect errors does not observe a cancellation, though).
///
/// The cancellation of an abandoned promise's future, and every failure downstream of it, is
/// reported as the ``AbandonedPromise`` instead, never also here.
///
/// Reported on the thread that released the future's last reference, as that happens.
public struct UnobservedFailure: Sendable, CustomStringConvertible {
    /// How the future failed.
    public enum Kind: String, Sendable {
        /// The future was rejected: its own work failed.
        case rejected
        /// The future was cancelled with an indirect error: something upstream failed.
        case cancelled
    }

    /// The future's value type.
    public let valueType: Any.Type
    /// Whether the future was rejected or cancelled.
    public let kind: Kind
    /// The rejection's error, or the cancellation's indirect error.
    public let error: any Error
    /// Where the promise whose failure this is was created: the future's own promise (or job),
    /// or, at the end of a chain, the promise whose failure travelled down to it. `nil` when no
    /// promise is known (a future created failed, a failure a chaining closure threw, a
    /// combinator's): the report is then counted by ``valueType`` and the error's type.
    public let promiseSite: CreationSite?
    /// Which unobserved failure this is at its site, in this process: 1 for the first, and each
    /// one a different number, even when several threads report at once.
    public let occurrence: Int

    /// The dynamic type of ``error``.
    public var errorType: Any.Type { type(of: error) }

    /// One line naming the future, where its failure came from, and the error.
    public var description: String {
        let origin = promiseSite.map { " (from the promise created at \($0))" } ?? ""
        let how = kind == .rejected ? "rejected with" : "cancelled because of"
        let error = "\(self.error)".split(whereSeparator: \.isNewline).joined(separator: " ")
        return "Petal: nobody observed the failure of a Future<\(valueType)>\(origin): \(how) \(error)"
    }
}

/// Where a promise was created, as `#fileID` and `#line` name it.
public struct CreationSite: Sendable, CustomStringConvertible {
    /// The file, as `#fileID` spells it.
    public let fileID: StaticString
    /// The line.
    public let line: UInt

    /// `fileID:line`.
    public var description: String { "\(fileID):\(line)" }
}

/// The unobserved failures counted at one site.
public struct UnobservedFailureSite: Sendable, CustomStringConvertible {
    /// The promise creation site, or `nil` for failures counted by value and error type.
    public let promiseSite: CreationSite?
    /// The value type (for a promise site, the first one counted there).
    public let valueType: Any.Type
    /// The error type (for a promise site, the first one counted there).
    public let errorType: Any.Type
    /// How many unobserved failures were counted here, in this process.
    public let count: Int

    /// One line naming the site and its count.
    public var description: String {
        let site = promiseSite.map { "Promise<\(valueType)> created at \($0)" } ?? "Future<\(valueType)>, \(errorType)"
        return "\(site): \(count) unobserved failure\(count == 1 ? "" : "s")"
    }
}

extension PetalDiagnostics {
    /// How many unobserved failures were counted in this process, at every site.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var unobservedFailureCount: Int {
        unobservedTally.snapshot.reduce(0) { $0 + $1.count }
    }

    /// Every site with counted unobserved failures, busiest first: promise creation sites, and,
    /// for failures no promise is known for, pairs of a value type and an error type.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var unobservedFailureSites: [UnobservedFailureSite] {
        unobservedTally.snapshot
            .map {
                UnobservedFailureSite(
                    promiseSite: $0.site.promiseSite, valueType: $0.site.valueType, errorType: $0.site.errorType,
                    count: $0.count)
            }
            .sorted { $0.count > $1.count }
    }

    private static let unobservedTally = RepeatTally<UnobservedSite>()

    /// Counts a failure of a future of `valueType` nobody observed, at the promise site numbered
    /// `site` if it has one, then calls the handler on this thread.
    static func reportUnobservedFailure(valueType: Any.Type, kind: OutcomeKind, error: any Error, site: UInt32) {
        let promise = FailureSiteNumbers.shared.site(numbered: site)
        let key = UnobservedSite(promise: promise, valueType: valueType, errorType: type(of: error))
        let occurrence = unobservedTally.count(key)
        let failure = UnobservedFailure(
            valueType: valueType, kind: kind == .rejected ? .rejected : .cancelled, error: error,
            promiseSite: key.promiseSite, occurrence: occurrence)
        report(.unobservedFailure(failure), occurrence: occurrence)
    }
}

/// An unobserved failure's site, as the tally counts it: the promise site when known (the types
/// are kept from the first failure there), otherwise the value and error types.
struct UnobservedSite: TallySite {
    let promise: PromiseTallySite?
    let valueType: Any.Type
    let errorType: Any.Type

    var promiseSite: CreationSite? {
        promise.map { CreationSite(fileID: $0.fileID, line: $0.line) }
    }

    var tallyHash: UInt {
        if let promise { return promise.tallyHash }
        return UInt(bitPattern: ObjectIdentifier(valueType).hashValue &* 31 &+ ObjectIdentifier(errorType).hashValue)
    }

    func isSameSite(as other: UnobservedSite) -> Bool {
        switch (promise, other.promise) {
        case (let mine?, let theirs?):
            return mine.isSameSite(as: theirs)
        case (nil, nil):
            return ObjectIdentifier(valueType) == ObjectIdentifier(other.valueType)
                && ObjectIdentifier(errorType) == ObjectIdentifier(other.errorType)
        default:
            return false
        }
    }
}
