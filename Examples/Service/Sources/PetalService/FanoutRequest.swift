import Hummingbird

/// What `GET /fanout/VARIANT?key=K&n=N` asks for: `n` backends, backend `i` answering `key * i`.
///
/// Validated here, once, so that every variant receives the same, safe input: `n` is bounded
/// because each backend call holds a timer and a handler, and `key` is bounded so that the sum
/// `key * n * (n + 1) / 2` cannot overflow (an overflow would trap and take the server down).
struct FanoutRequest: Sendable {
    /// How many backend calls a request may make.
    static let callRange = 1...256
    /// The calls made when the request does not say.
    static let defaultCount = 3
    /// The keys accepted: |key| * 256 * 257 / 2 stays far below `Int.max`.
    static let keyRange = -1_000_000_000_000...1_000_000_000_000
    /// How long a request waits for all its backends before answering 504.
    static let deadline = Duration.milliseconds(20)

    /// The key each backend multiplies by its index.
    let key: Int
    /// How many backends to call, from 1 to 256.
    let count: Int

    /// The sum a correct answer carries.
    var expectedSum: Int { key * count * (count + 1) / 2 }

    /// Reads `key` (default 1) and `n` (default 3) from the query string.
    ///
    /// - Throws: `HTTPError(.badRequest)` when either is not an integer or is out of range.
    init(_ request: Request) throws {
        let query = request.uri.queryParameters
        key = try Self.integer(query["key"], named: "key", default: 1, in: Self.keyRange)
        count = try Self.integer(query["n"], named: "n", default: Self.defaultCount, in: Self.callRange)
    }

    /// Parses one parameter; absent means `fallback`, anything else must be an integer in `range`.
    private static func integer(
        _ text: Substring?, named name: String, default fallback: Int, in range: ClosedRange<Int>
    ) throws -> Int {
        guard let text else { return fallback }
        guard let value = Int(text), range.contains(value) else {
            throw HTTPError(.badRequest, message: "\(name) must be an integer in \(range)")
        }
        return value
    }
}
