import CBenchSupport
import LibraryPromises

/// The generic `Mutex` promise (`LibraryPromises`), called as its library's users call it:
/// `Value` is `Int` here, but the promise's code was compiled for any `Value`.
public enum GenericMutexContender: Contender {
    public static let name = "Mutex (generic)"
    public static func make() -> GenericMutexPromise<Int> { GenericMutexPromise() }
    public static func subscribeCounting(_ handle: GenericMutexPromise<Int>) {
        handle.subscribe { _ in bench_count_add() }
    }
    public static func subscribe(_ handle: GenericMutexPromise<Int>, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.subscribe(callback)
    }
    public static func subscribeForwarding(_ handle: GenericMutexPromise<Int>, to next: GenericMutexPromise<Int>) {
        handle.subscribe { next.fulfil($0) }
    }
    @discardableResult
    public static func fulfil(_ handle: GenericMutexPromise<Int>, with value: Int) -> Bool { handle.fulfil(value) }
}

/// The generic bare lock-free promise (`LibraryPromises`), called as a library's users call it.
public enum GenericBareContender: Contender {
    public static let name = "bare lock-free (generic)"
    public static func make() -> GenericBarePromise<Int> { GenericBarePromise() }
    public static func subscribeCounting(_ handle: GenericBarePromise<Int>) {
        handle.subscribe { _ in bench_count_add() }
    }
    public static func subscribe(_ handle: GenericBarePromise<Int>, _ callback: @escaping @Sendable (Int) -> Void) {
        handle.subscribe(callback)
    }
    public static func subscribeForwarding(_ handle: GenericBarePromise<Int>, to next: GenericBarePromise<Int>) {
        handle.subscribe { next.fulfil($0) }
    }
    @discardableResult
    public static func fulfil(_ handle: GenericBarePromise<Int>, with value: Int) -> Bool { handle.fulfil(value) }
}
