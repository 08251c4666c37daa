/// A promise resolved a second time: the attempt was ignored.
public struct RepeatedResolution: Sendable, CustomStringConvertible {
    /// What the ignored call tried to do.
    public enum Attempt: String, Sendable {
        /// `fulfil(with:)`, or `resolve(with: .fulfilled)`.
        case fulfil
        /// `reject(with:)`, or `resolve(with: .rejected)`.
        case reject
        /// `cancel(withIndirectError:)`, or `resolve(with: .cancelled)`.
        case cancel

        /// The attempt that tried to resolve with an outcome of `kind`.
        @inlinable
        init(_ kind: OutcomeKind) {
            switch kind {
            case .fulfilled: self = .fulfil
            case .rejected: self = .reject
            case .cancelled: self = .cancel
            }
        }
    }

    /// The promise's value type.
    public let valueType: Any.Type
    /// The file in which the promise was created.
    public let fileID: StaticString
    /// The line at which the promise was created.
    public let line: UInt
    /// The ignored attempt.
    public let attempt: Attempt
    /// Which repeat this is at the promise's creation site, in this process: 1 for the first,
    /// and each repeat a different number, even when several threads report at once. A handler
    /// that logs only when this is 1 logs once per site.
    public let occurrence: Int

    /// The promise: its value type and creation site. Computed when read, so a report that
    /// nobody formats costs no allocation.
    public var promise: String {
        "Promise<\(valueType)> created at \(fileID):\(line)"
    }

    /// One line naming the promise and the ignored attempt.
    public var description: String {
        "Petal: ignored a second resolution (\(attempt.rawValue)) of \(promise); the first one stands"
    }
}

/// The repeated resolutions counted at one promise creation site.
public struct RepeatedResolutionSite: Sendable, CustomStringConvertible {
    /// The value type of the promise whose repeat was counted first at this site.
    public let valueType: Any.Type
    /// The file in which the promises were created.
    public let fileID: StaticString
    /// The line at which the promises were created.
    public let line: UInt
    /// How many repeated resolutions were counted here, in this process.
    public let count: Int

    /// One line naming the site and its count.
    public var description: String {
        "Promise<\(valueType)> created at \(fileID):\(line): \(count) repeated resolution\(count == 1 ? "" : "s")"
    }
}

extension PetalDiagnostics {
    /// How many repeated resolutions were counted in this process, at every site.
    ///
    /// Promises created with ``RepeatedResolutionPolicy/ignore`` are not counted. A snapshot:
    /// other threads may be counting while it is read.
    public static var repeatedResolutionCount: Int {
        resolutionTally.snapshot.reduce(0) { $0 + $1.count }
    }

    /// Every promise creation site with counted repeated resolutions, busiest first.
    ///
    /// A site is a `fileID` and a `line`; a site where promises of several value types were
    /// created is one site, named by the first type counted there. A snapshot: other threads may
    /// be counting while it is read.
    public static var repeatedResolutionSites: [RepeatedResolutionSite] {
        resolutionTally.snapshot
            .map {
                RepeatedResolutionSite(
                    valueType: $0.site.valueType, fileID: $0.site.fileID, line: $0.site.line, count: $0.count)
            }
            .sorted { $0.count > $1.count }
    }

    private static let resolutionTally = RepeatTally<PromiseTallySite>()

    /// Counts a repeated resolution of a promise created at `fileID`:`line`, then calls the
    /// handler on this thread.
    static func reportRepeatedResolution(
        valueType: Any.Type, fileID: StaticString, line: UInt, attempt: RepeatedResolution.Attempt
    ) {
        let occurrence = resolutionTally.count(PromiseTallySite(fileID: fileID, line: line, valueType: valueType))
        report(
            .repeatedResolution(
                RepeatedResolution(
                    valueType: valueType, fileID: fileID, line: line, attempt: attempt, occurrence: occurrence)),
            occurrence: occurrence)
    }
}

/// A promise creation site, as the tallies count it (repeats, abandonments, unobserved failures).
struct PromiseTallySite: TallySite {
    let fileID: StaticString
    let line: UInt
    /// Kept from the first repeat; not part of the site's identity.
    let valueType: Any.Type

    /// The line alone: hashing the file name would read it on every repeat, and sites that share
    /// a line number in different files only share a bucket.
    var tallyHash: UInt { line }

    func isSameSite(as other: PromiseTallySite) -> Bool {
        guard line == other.line else { return false }
        // A file's #fileID is normally one string in the binary; compare contents when it is not.
        if fileID.hasPointerRepresentation && other.fileID.hasPointerRepresentation
            && fileID.utf8Start == other.fileID.utf8Start
        {
            return true
        }
        return fileID.withUTF8Buffer { mine in other.fileID.withUTF8Buffer { mine.elementsEqual($0) } }
    }
}
