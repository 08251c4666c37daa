import CPetal

/// Where the actions that answer a future's cancellation request wait: a promise owner's
/// handlers, a job's `attemptCancel`, a chained future's vote on its upstream.
///
/// Why a side table: a future's storage has no room for a pointer (its size is pinned), and
/// almost no future ever needs one. The table is keyed by the storage's address; a storage with
/// entries says so in its request word (``CancellationRequestWord/hasActions``), so nobody else
/// ever looks here, and its entries go when it resolves or is freed, whichever comes first.
///
/// Sharded pthread mutexes: registrations (one per job) come from every thread, and the
/// mutexes are visible to ThreadSanitizer. Actions always run, and are always released, with
/// no lock held: an action may register, request or release futures, which comes back here.
enum CancellationRegistry {
    typealias Action = @Sendable () -> Void

    private static let shardCount = 16
    private static let shards: [PosixLock<[ObjectIdentifier: [Action]]>] = (0..<shardCount).map { _ in
        PosixLock([:])
    }

    private static func shard(for key: ObjectIdentifier) -> PosixLock<[ObjectIdentifier: [Action]]> {
        // Storages are at least 16-byte aligned: skip the bits that never vary.
        shards[(Int(bitPattern: UInt(bitPattern: key.hashValue)) >> 4) & (shardCount - 1)]
    }

    /// Registers `action` to run when a request reaches `storage`. Runs it at once (on this
    /// thread) if a request already did; drops it if `storage` is resolved.
    static func add<Value>(_ action: @escaping Action, for storage: FutureStorage<Value>) {
        let key = ObjectIdentifier(storage)
        let runNow: Bool = shard(for: key).withLock { table in
            // Under the lock, so a concurrent request either takes this action or is seen here.
            let word = petal_atomic_u32_load(storage.requestWord)
            if word & CancellationRequestWord.requested != 0 { return true }
            if storage.isResolved { return false }
            table[key, default: []].append(action)
            storage.updateRequestWord { word in
                word & CancellationRequestWord.hasActions != 0 ? nil : word | CancellationRequestWord.hasActions
            }
            return false
        }
        if runNow { action() }
    }

    /// Takes every action registered for `storage`, leaving none.
    private static func take(for key: ObjectIdentifier) -> [Action] {
        shard(for: key).withLock { table in table.removeValue(forKey: key) ?? [] }
    }

    /// Takes the actions of a storage a request has just reached (its REQUESTED bit is set, so
    /// an action registered later does not wait here: it runs at once instead). The caller runs
    /// them with no lock held.
    static func takeActions<Value>(for storage: FutureStorage<Value>) -> [Action] {
        guard petal_atomic_u32_load(storage.requestWord) & CancellationRequestWord.hasActions != 0 else { return [] }
        return take(for: ObjectIdentifier(storage))
    }

    /// Drops the actions of a storage that resolved or is being freed.
    static func discardActions(for key: ObjectIdentifier) {
        let actions = take(for: key)
        _ = consume actions  // released here, outside the lock
    }

    /// How many storages have actions waiting, for tests.
    static var entryCount: Int {
        shards.reduce(0) { total, shard in total + shard.withLock { $0.count } }
    }
}
