import LibraryPromises

// The generic designs (`LibraryPromises`) as contenders, through the adapter of the lock-based
// promises: `Value` is `Int` at the call, but their code was built for any `Value`, as a
// package dependency's is.

extension GenericMutexPromise: LockedPromise where Value == Int {
    public static var contenderName: String { "Mutex (generic)" }
    public static var fansIn: Bool { true }
    public static func runFulfillingWhen(width: Int, value: Int) {
        runFulfillingWhen(width: width, value: value, into: GenericMutexPromise<[Int]>.self)
    }
}

extension GenericBarePromise: LockedPromise where Value == Int {
    public static var contenderName: String { "bare lock-free (generic)" }
    public static var fansIn: Bool { true }
    public static func runFulfillingWhen(width: Int, value: Int) {
        runFulfillingWhen(width: width, value: value, into: GenericBarePromise<[Int]>.self)
    }
}
