/// The indirect error of a race given no futures: ``Future/firstResolved(of:cancellingUpstream:)`` or
/// ``Future/firstFulfilled(of:cancellingUpstream:)`` called with an empty array.
///
/// No input could ever resolve such a race, so its future is cancelled at once instead of staying
/// pending forever; this error says which combinator was called.
public struct EmptyRaceError: Error, Equatable, CustomStringConvertible {
    /// The combinator that was given no futures, such as `"firstResolved(of:)"`.
    public let combinator: String

    /// Creates the error for `combinator`, called without futures.
    public init(combinator: String) {
        self.combinator = combinator
    }

    /// One line naming the combinator.
    public var description: String {
        "Future.\(combinator) was given no futures, so nothing could ever resolve it"
    }
}
