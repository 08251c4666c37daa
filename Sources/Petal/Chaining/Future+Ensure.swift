/// `ensure`: a step that checks the value and rejects when the check fails (a filter).
extension Future {
    /// Passes the value on if `predicate` accepts it, and rejects with `error` otherwise.
    ///
    /// - Parameters:
    ///   - context: Where `predicate` runs.
    ///   - error: The rejection when `predicate` returns `false`, evaluated only then.
    ///   - predicate: Runs once on `context`, with the value, after the receiver is fulfilled.
    /// - Returns: a future fulfilled with the value when `predicate` returns `true`; rejected
    ///   with `error` when it returns `false`, or with what it throws; cancelled, with the
    ///   receiver's error as its indirect error, when the receiver is rejected or cancelled (and
    ///   `predicate` never runs).
    @inlinable
    public func ensure<Context: ExecutionContext>(
        on context: Context = .inline,
        orRejectWith error: consuming @autoclosure @escaping @Sendable () -> any Error,
        _ predicate: consuming @escaping @Sendable (Value) throws -> Bool
    ) -> Future<Value> {
        storage.chain(Ensure<Value>.self, on: context, body: (consume predicate, consume error))
    }

    /// Passes the value on if `predicate` accepts it, and rejects with an
    /// ``UnmetConditionError`` naming this call's site otherwise.
    ///
    /// - Parameters:
    ///   - context: Where `predicate` runs.
    ///   - predicate: Runs once on `context`, with the value, after the receiver is fulfilled.
    ///   - fileID: The call site's file, named in the error; leave the default.
    ///   - line: The call site's line, named in the error; leave the default.
    /// - Returns: a future fulfilled with the value when `predicate` returns `true`; rejected
    ///   with an ``UnmetConditionError`` when it returns `false`, or with what it throws;
    ///   cancelled, with the receiver's error as its indirect error, when the receiver is
    ///   rejected or cancelled (and `predicate` never runs).
    @inlinable
    public func ensure<Context: ExecutionContext>(
        on context: Context = .inline,
        fileID: String = #fileID,
        line: UInt = #line,
        _ predicate: consuming @escaping @Sendable (Value) throws -> Bool
    ) -> Future<Value> {
        ensure(on: context, orRejectWith: UnmetConditionError(fileID: fileID, line: line), predicate)
    }
}

/// The rejection of ``Future/ensure(on:fileID:line:_:)`` when the value does not satisfy the
/// condition.
public struct UnmetConditionError: Error, Sendable, CustomStringConvertible {
    /// The file of the `ensure` call.
    public let fileID: String
    /// The line of the `ensure` call.
    public let line: UInt

    /// Creates the error for an `ensure` call at `fileID`:`line`.
    public init(fileID: String, line: UInt) {
        self.fileID = fileID
        self.line = line
    }

    /// A one-line description naming the `ensure` call.
    public var description: String {
        "the value did not satisfy the condition of ensure at \(fileID):\(line)"
    }
}

/// `ensure`: the value passes if the predicate holds; otherwise, or if the predicate throws,
/// the chained future is rejected.
@usableFromInline
enum Ensure<Value>: ValueStepLogic {
    @usableFromInline
    typealias Input = Value
    @usableFromInline
    typealias Output = Value
    @usableFromInline
    typealias Body = (predicate: @Sendable (Value) throws -> Bool, error: @Sendable () -> any Error)

    @inlinable
    static func run(
        _ body: (predicate: @Sendable (Value) throws -> Bool, error: @Sendable () -> any Error), value: Value,
        downstream: FutureStorage<Value>
    ) {
        downstream.settle {
            guard try body.predicate(value) else { throw body.error() }
            return value
        }
    }
}
