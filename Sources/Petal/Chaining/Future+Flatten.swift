/// Flattening: a future of a future becomes a future of the inner value.
extension Future {
    /// The inner future's outcome, once the outer future delivers it.
    ///
    /// - Returns: a future resolved exactly as the inner future (fulfilled, rejected or
    ///   cancelled alike), once the receiver is fulfilled with it; cancelled, with the
    ///   receiver's error as its indirect error, when the receiver is rejected or cancelled.
    ///   No closure of yours runs, so there is no context to choose.
    @inlinable
    public func flattened<Inner>() -> Future<Inner> where Value == Future<Inner> {
        storage.chain(Flatten<Inner>.self, on: .inline, body: ())
    }
}

/// `flattened()`: the chained future follows the inner future.
@usableFromInline
enum Flatten<Inner>: ValueStepLogic {
    @inlinable
    static var mayPassRequests: Bool { true }

    @usableFromInline
    typealias Input = Future<Inner>
    @usableFromInline
    typealias Output = Inner
    @usableFromInline
    typealias Body = Void

    @inlinable
    static func run(_: Void, value: Future<Inner>, downstream: FutureStorage<Inner>) {
        downstream.follow("Future.flattened()") { value }
    }
}
