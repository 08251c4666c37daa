import LibraryPromises

// The generic designs (`LibraryPromises`) as contenders, through the adapter of the lock-based
// promises: `Value` is `Int` at the call, but their code was built for any `Value`, as a
// package dependency's is.

extension GenericMutexPromise: LockedPromise where Value == Int {
    public static var contenderName: String { "Mutex (generic)" }
}

extension GenericBarePromise: LockedPromise where Value == Int {
    public static var contenderName: String { "bare lock-free (generic)" }
}
