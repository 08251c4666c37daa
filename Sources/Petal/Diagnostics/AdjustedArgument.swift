/// A value passed to Petal was outside what its parameter can honour, and Petal used the
/// nearest one it can instead, as that parameter's documentation says.
///
/// For example a ``RetryPolicy/multiplier`` that is not a number (a fixed wait is used), a
/// timeout longer than ``DeadlineClock/longestWait`` (that is used), or `attempts: 0` (one
/// attempt). The call goes on with the adjusted value: nothing traps, now or later on Petal's
/// timer thread. Such a value usually comes from configuration, so the report names the
/// parameter, and the value given and used.
public struct AdjustedArgument: Sendable, CustomStringConvertible {
    /// The parameter, as `Type.member` or `Type.method(label:)`.
    public let parameter: String
    /// The value given, as text.
    public let given: String
    /// The value used instead, as text.
    public let used: String
    /// Which adjustment of this parameter this is, in this process: 1 for the first, and each
    /// one a different number, even when several threads report at once.
    public let occurrence: Int

    /// One line naming the parameter, and the values given and used.
    public var description: String {
        "Petal: \(parameter) was \(given), which it cannot honour; used \(used)"
    }
}

extension PetalDiagnostics {
    /// How many arguments Petal adjusted in this process, for every parameter.
    ///
    /// A snapshot: other threads may be counting while it is read.
    public static var adjustedArgumentCount: Int {
        adjustmentTally.snapshot.reduce(0) { $0 + $1.count }
    }

    private static let adjustmentTally = RepeatTally<ParameterSite>()

    /// Counts an adjustment of `parameter`, then calls the handler on this thread.
    static func reportAdjustedArgument(
        _ parameter: StaticString, given: @autoclosure () -> String, used: @autoclosure () -> String
    ) {
        let occurrence = adjustmentTally.count(ParameterSite(name: parameter))
        report(
            .adjustedArgument(
                AdjustedArgument(
                    parameter: parameter.description, given: given(), used: used(), occurrence: occurrence)),
            occurrence: occurrence)
    }
}

/// A parameter's name, as the adjustment tally counts it: by its text, with no allocation.
struct ParameterSite: TallySite {
    let name: StaticString

    var tallyHash: UInt {
        // FNV-1a over the name's bytes: a string literal's address is not the same in every use.
        name.withUTF8Buffer { bytes in
            bytes.reduce(UInt(truncatingIfNeeded: 0xcbf2_9ce4_8422_2325 as UInt64)) {
                ($0 ^ UInt($1)) &* UInt(truncatingIfNeeded: 0x0100_0000_01b3 as UInt64)
            }
        }
    }

    func isSameSite(as other: ParameterSite) -> Bool {
        name.withUTF8Buffer { mine in other.name.withUTF8Buffer { theirs in mine.elementsEqual(theirs) } }
    }
}
