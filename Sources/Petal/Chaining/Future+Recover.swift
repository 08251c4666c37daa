/// `recover` and `mapError`: turn a failure that reaches this point of a chain into a value, or
/// into a different error.
///
/// Which failures a recovery sees: the receiver's rejection, and, when `includingIndirectErrors`
/// is `true` (the default), a cancellation's indirect error (a failure further up, carried down
/// the chain). A cancellation without an error is never recovered from: nothing failed.
extension Future {
    /// Replaces a failure with the value `body` returns, if it returns one.
    ///
    /// - Where and when: `body` runs once on `context`, with the error, when the receiver fails
    ///   in a way it sees (see above); never when the receiver is fulfilled.
    /// - Returns: a future fulfilled with the receiver's value, or with what `body` returns;
    ///   rejected with what `body` throws; cancelled, with the receiver's error as its indirect
    ///   error, when `body` returns `nil` or does not see the failure (the failure keeps
    ///   travelling down the chain).
    @inlinable
    public func recover<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using body: consuming @escaping @Sendable (any Error) throws -> Value?
    ) -> Future<Value> {
        storage.chain(Recover<Value>.self, on: context, body: (includeIndirectErrors, consume body))
    }

    /// Replaces a failure with `alternative`, computed only if it is needed.
    ///
    /// - Where and when: `alternative` is evaluated once, inline on the thread that resolves the
    ///   receiver, when the receiver fails in a way it sees (see above); never when the receiver
    ///   is fulfilled. A value needs no execution context: to compute it elsewhere, pass a
    ///   closure.
    /// - Returns: a future fulfilled with the receiver's value, or with `alternative`; cancelled,
    ///   with the receiver's error as its indirect error, when the failure is not one it sees.
    @inlinable
    public func recover(
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using alternative: consuming @autoclosure @escaping @Sendable () -> Value
    ) -> Future<Value> {
        storage.chain(RecoverWithValue<Value>.self, on: .inline, body: (includeIndirectErrors, consume alternative))
    }

    /// Replaces a failure with the work `body` returns.
    ///
    /// - Where and when: `body` runs once on `context`, with the error, when the receiver fails
    ///   in a way it sees (see above); never when the receiver is fulfilled.
    /// - Returns: a future fulfilled with the receiver's value, or resolved exactly as the future
    ///   `body` returns (it is this step's own work); rejected with what `body` throws;
    ///   cancelled, with the receiver's error as its indirect error, when the failure is not
    ///   one it sees.
    @inlinable
    public func recover<Context: ExecutionContext>(
        on context: Context = .inline,
        includingIndirectErrors includeIndirectErrors: Bool = true,
        using body: consuming @escaping @Sendable (any Error) throws -> Future<Value>
    ) -> Future<Value> {
        storage.chain(RecoverFollowing<Value>.self, on: context, body: (includeIndirectErrors, consume body))
    }

    /// Replaces the error that travels down the chain with what `transform` makes of it.
    ///
    /// - Where and when: `transform` runs once on `context`, with the receiver's rejection error
    ///   or its cancellation's indirect error; never for a fulfilment or a cancellation without
    ///   an error.
    /// - Returns: a future fulfilled with the receiver's value; cancelled with the transformed
    ///   error as its indirect error when the receiver is rejected or cancelled with an error
    ///   (downstream of a failure, by the one failure rule); cancelled without an error when
    ///   the receiver is.
    @inlinable
    public func mapError<Context: ExecutionContext>(
        on context: Context = .inline, _ transform: consuming @escaping @Sendable (any Error) -> any Error
    ) -> Future<Value> {
        storage.chain(MapError<Value>.self, on: context, body: consume transform)
    }
}

/// `recover` with an optional-returning closure: a value fulfils, `nil` lets the failure travel on.
@usableFromInline
enum Recover<Value>: FailureStepLogic {
    @usableFromInline
    typealias Output = Value
    @usableFromInline
    typealias Body = (includeIndirectErrors: Bool, handler: @Sendable (any Error) throws -> Value?)

    @inlinable
    static func includesIndirectErrors(_ body: Body) -> Bool { body.includeIndirectErrors }

    @inlinable
    static func run(
        _ body: Body, error: any Error, upstream: FutureStorage<Value>, downstream: FutureStorage<Value>
    ) {
        do {
            if let value = try body.handler(error) {
                downstream.fulfil(with: value)
            } else {
                // Declined: the closure saw the failure and chose to let it stand, so the
                // failure passed on is observed.
                downstream.cancel(following: upstream)
                downstream.markFailureObserved()
            }
        } catch {
            downstream.fail(.rejected, error: error)
        }
    }
}

/// `recover` with an alternative value.
@usableFromInline
enum RecoverWithValue<Value>: FailureStepLogic {
    @usableFromInline
    typealias Output = Value
    @usableFromInline
    typealias Body = (includeIndirectErrors: Bool, alternative: @Sendable () -> Value)

    @inlinable
    static func includesIndirectErrors(_ body: Body) -> Bool { body.includeIndirectErrors }

    @inlinable
    static func run(
        _ body: Body, error _: any Error, upstream _: FutureStorage<Value>, downstream: FutureStorage<Value>
    ) {
        downstream.fulfil(with: body.alternative())
    }
}

/// `recover` with a future-returning closure: the chained future follows the one returned.
@usableFromInline
enum RecoverFollowing<Value>: FailureStepLogic {
    @inlinable
    static var mayPassRequests: Bool { true }

    @usableFromInline
    typealias Output = Value
    @usableFromInline
    typealias Body = (includeIndirectErrors: Bool, handler: @Sendable (any Error) throws -> Future<Value>)

    @inlinable
    static func includesIndirectErrors(_ body: Body) -> Bool { body.includeIndirectErrors }

    @inlinable
    static func run(
        _ body: Body, error: any Error, upstream _: FutureStorage<Value>, downstream: FutureStorage<Value>
    ) {
        downstream.follow("Future.recover(on:includingIndirectErrors:using:)") { try body.handler(error) }
    }
}

/// `mapError`: the failure travels on as a cancellation whose indirect error is the
/// transformed one (indirect errors are transformed too).
@usableFromInline
enum MapError<Value>: FailureStepLogic {
    @usableFromInline
    typealias Output = Value
    @usableFromInline
    typealias Body = @Sendable (any Error) -> any Error

    @inlinable
    static func includesIndirectErrors(_: Body) -> Bool { true }

    @inlinable
    static func run(
        _ transform: Body, error: any Error, upstream: FutureStorage<Value>, downstream: FutureStorage<Value>
    ) {
        // Still the upstream's failure, in other words: it names the same promise site.
        downstream.fail(.cancelled, error: transform(error), failureSite: upstream.failureSite)
    }
}
