/// A promise was dropped before anyone resolved it: its future was cancelled with an
/// ``AbandonedPromiseError`` as the indirect error, so that nothing waits on it for ever.
///
/// Reported once per dropped promise (for a ``Job`` dropped unfinished, its promise: the job's
/// creation site), on the thread that released the promise's last reference. The cancelled future,
/// and every future downstream of it, is then never also reported as an ``UnobservedFailure``.
public struct AbandonedPromise: Sendable, CustomStringConvertible {
    /// The promise's value type.
    public let valueType: Any.Type
    /// The file in which the promise was created.
    public let fileID: StaticString
    /// The line at which the promise was created.
    public let line: UInt
    /// Which abandonment this is at the promise's creation site, in this process: 1 for the
    /// first, and each one a different number, even when several threads report at once.
    public let occurrence: Int

    /// The promise: its value type and creation site. Computed when read, so a report that
    /// nobody formats costs no allocation.
    public var promise: String {
        "Promise<\(valueType)> created at \(fileID):\(line)"
    }

    /// One line naming the promise.
    public var description: String {
        "Petal: \(promise) was dropped before it was resolved; its future was cancelled with AbandonedPromiseError"
    }
}

/// The abandoned promises counted at one creation site.
public struct AbandonedPromiseSite: Sendable, CustomStringConvertible {
    /// The value type of the promise counted first at this site.
    public let valueType: Any.Type
    /// The file in which the promises were created.
    public let fileID: StaticString
    /// The line at which the promises were created.
    public let line: UInt
    /// How many promises created here were dropped unresolved, in this process.
    public let count: Int

    /// One line naming the site and its count.
    public var description: String {
        "Promise<\(valueType)> created at \(fileID):\(line): \(count) abandoned"
    }
}

extension PetalDiagnostics {
    /// How many promises were dropped unresolved in this process, at every site.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var abandonedPromiseCount: Int {
        abandonmentTally.snapshot.reduce(0) { $0 + $1.count }
    }

    /// Every promise creation site with promises dropped unresolved, busiest first.
    ///
    /// A site is a `fileID` and a `line`, named by the first value type counted there. A
    /// snapshot: other threads may be counting while it is read.
    public static var abandonedPromiseSites: [AbandonedPromiseSite] {
        abandonmentTally.snapshot
            .map {
                AbandonedPromiseSite(
                    valueType: $0.site.valueType, fileID: $0.site.fileID, line: $0.site.line, count: $0.count)
            }
            .sorted { $0.count > $1.count }
    }

    private static let abandonmentTally = RepeatTally<PromiseTallySite>()

    /// Counts a promise of `valueType` created at `fileID`:`line` dropped unresolved, then calls
    /// the handler on this thread.
    static func reportAbandonedPromise(valueType: Any.Type, fileID: StaticString, line: UInt) {
        let occurrence = abandonmentTally.count(PromiseTallySite(fileID: fileID, line: line, valueType: valueType))
        let abandoned = AbandonedPromise(valueType: valueType, fileID: fileID, line: line, occurrence: occurrence)
        report(.abandonedPromise(abandoned), occurrence: occurrence)
    }
}
