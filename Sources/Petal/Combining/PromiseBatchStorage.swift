import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The slots of a ``PromiseBatch``: a claim word and a value each, the count of slots still to
/// fulfil, and the stops registered for slots, all in one allocation beside this object.
///
/// The protocol (`Tests/Model/petal_batch.pml`, tied to these functions by
/// `Scripts/check-model-conformance`): a slot's word leaves `pending` once, by the first
/// compare-and-swap of a fulfil, a failure or a stop (``claim(_:as:)``). A fulfil that wins
/// writes the value, then counts down; the count that reaches zero moves every value out and
/// fulfils `all`. A failure that wins cancels `all`; whoever decides `all` other than by the last
/// fulfil (a failure, or a consumer's request) stops the slots still pending that registered a
/// stop, once each, and every stop registered later at once.
///
/// The stops and the flag that `all` was given up on (`BatchStops`) live in the allocation too,
/// not in stored variables: Swift checks each access to a class's stored variable for
/// exclusivity at run time (`swift_beginAccess`, a thread-local access set), about 80
/// instructions a registration in the example service's fan-out, where the mutex already makes
/// the access exclusive.
///
/// Not `ManagedBuffer`: the words must stay at one address for the C atomics, the mutex must
/// never move either, and the values' part starts wherever `Value`'s alignment puts it.
@usableFromInline
final class PromiseBatchStorage<Value>: @unchecked Sendable {
    // @unchecked: a slot's value is written once, by the thread whose compare-and-swap claimed
    // the slot for a fulfil, before that thread's (FULL) count down; it is read by the thread
    // whose count down reached zero, which sees every earlier count down and so every value
    // (each count down is a FULL compare-and-swap on the same word), or by the deinit of a batch
    // nobody holds. `stops` is touched only with the mutex held (a pthread mutex, which
    // ThreadSanitizer understands).

    /// The number of slots.
    @usableFromInline
    let count: Int

    /// The slots' claim words, then the count still to fulfil (`slotWords + count`).
    @usableFromInline
    let slotWords: UnsafeMutablePointer<petal_atomic_word>

    /// Slots still to fulfil: zero once every slot is fulfilled, and then the values are gone.
    @usableFromInline
    let remaining: UnsafeMutablePointer<petal_atomic_word>

    /// The values, each initialised only once its slot is claimed for a fulfil.
    @usableFromInline
    let values: UnsafeMutablePointer<Value>

    /// Guards `stops`.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// The stops registered, and whether `all` was given up on.
    private let stops: UnsafeMutablePointer<BatchStops>

    /// A slot nobody has resolved.
    @usableFromInline
    static var pending: petal_word { 0 }
    /// A slot claimed by a fulfil: its value is written (or about to be).
    @usableFromInline
    static var fulfilled: petal_word { 1 }
    /// A slot claimed by a rejection or a cancellation.
    @usableFromInline
    static var failed: petal_word { 2 }
    /// A slot claimed by its stop, after `all` was given up on: what its producer sends later was
    /// on its way, and is not a repeat.
    @usableFromInline
    static var stopped: petal_word { 3 }

    /// Makes `count` pending slots, in one allocation: words, mutex, stops, values.
    init(count: Int) {
        self.count = count
        let layout = Self.layout(count: count)
        let base = UnsafeMutableRawPointer.allocate(byteCount: layout.bytes, alignment: layout.alignment)
        slotWords = base.bindMemory(to: petal_atomic_word.self, capacity: count + 1)
        slotWords.initialize(repeating: petal_atomic_word(value: Self.pending), count: count)
        remaining = slotWords + count
        remaining.initialize(to: petal_atomic_word(value: petal_word(count)))
        mutex = (base + layout.mutex).bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed: \(status)")
        stops = (base + layout.stops).bindMemory(to: BatchStops.self, capacity: 1)
        stops.initialize(to: BatchStops())
        values = (base + layout.values).bindMemory(to: Value.self, capacity: count)
    }

    /// Where the mutex, the stops and the values start in the allocation, its size and alignment.
    private static func layout(count: Int) -> (mutex: Int, stops: Int, values: Int, bytes: Int, alignment: Int) {
        func aligned(_ offset: Int, _ alignment: Int) -> Int { (offset + alignment - 1) & ~(alignment - 1) }
        let mutex = aligned(
            (count + 1) * MemoryLayout<petal_atomic_word>.stride, MemoryLayout<pthread_mutex_t>.alignment)
        let stops = aligned(mutex + MemoryLayout<pthread_mutex_t>.size, MemoryLayout<BatchStops>.alignment)
        let values = aligned(stops + MemoryLayout<BatchStops>.size, MemoryLayout<Value>.alignment)
        let alignment = max(
            MemoryLayout<petal_atomic_word>.alignment, MemoryLayout<pthread_mutex_t>.alignment,
            MemoryLayout<BatchStops>.alignment, MemoryLayout<Value>.alignment)
        return (mutex, stops, values, values + count * MemoryLayout<Value>.stride, alignment)
    }

    deinit {
        // Nobody else holds the batch: the acquire loads see every claim and value written. A
        // count at zero means the values were moved into `all`'s array.
        if petal_atomic_word_load(remaining) != 0 {
            for index in 0..<count where petal_atomic_word_load(slotWords + index) == Self.fulfilled {
                (values + index).deinitialize(count: 1)
            }
        }
        stops.deinitialize(count: 1)
        pthread_mutex_destroy(mutex)
        UnsafeMutableRawPointer(slotWords).deallocate()
    }

    /// Moves slot `index` from pending to `state`; returns the state it was in (`pending` if
    /// this call claimed it).
    @inlinable
    func claim(_ index: Int, as state: petal_word) -> petal_word {
        var seen = Self.pending
        // FULL: the claim orders nothing by itself (the count down publishes the value, the
        // stop's mutex its registration), but it is the one compare-and-swap the C side offers.
        _ = petal_atomic_word_exchange(slotWords + index, &seen, state)
        return seen
    }

    /// Fulfils slot `index` with `value`, and `result` once it was the last; returns the state
    /// the slot was in (`pending` if this call fulfilled it).
    @inlinable
    func fulfil(_ index: Int, with value: Value, resolving result: FutureStorage<[Value]>) -> petal_word {
        let seen = claim(index, as: Self.fulfilled)
        guard seen == Self.pending else { return seen }
        (values + index).initialize(to: value)
        var left = petal_atomic_word_load(remaining)
        // FULL, and a loop only under contention: each count down publishes its slot's value
        // and sees every earlier one, so the count that reaches zero sees all the values.
        while petal_atomic_word_exchange(remaining, &left, left - 1) == 0 {}
        if left == 1 { _ = result.fulfil(with: movingValues()) }
        return Self.pending
    }

    /// Every value, moved out in slot order: by the thread whose count down reached zero, when
    /// no other thread can touch them.
    @usableFromInline
    func movingValues() -> [Value] {
        [Value](unsafeUninitializedCapacity: count) { buffer, initialised in
            buffer.baseAddress.unsafelyUnwrapped.moveInitialize(from: values, count: count)
            initialised = count
        }
    }

    /// Rejects or cancels slot `index`; if this call claimed it, cancels `result` with `error`
    /// as its indirect error, naming promise site `failureSite` (the first failure decides), and,
    /// if that decided it, stops the slots still pending.
    /// Returns the state the slot was in (`pending` if this call failed it).
    func fail(
        _ index: Int, error: (any Error)?, resolving result: FutureStorage<[Value]>, failureSite: UInt32
    )
        -> petal_word
    {
        let seen = claim(index, as: Self.failed)
        guard seen == Self.pending else { return seen }
        if result.fail(.cancelled, error: error, failureSite: failureSite) { stopPending() }
        return Self.pending
    }

    /// Runs `stop` once if `all` is given up on while slot `index` is still pending (at once, if it
    /// already was): the slot is then stopped, and never fulfilled.
    func addStop(_ index: Int, _ stop: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        let now = stops.pointee.requested
        if !now {
            // Room for every slot at the first: a fan-out registers a stop per call, and growing
            // by doubling cost it a reallocation and a copy at 1, 2, 4, 8 and 16 stops.
            if stops.pointee.list.capacity == 0 { stops.pointee.list.reserveCapacity(count) }
            stops.pointee.list.append(BatchSlotStop(index: index, stop: stop))
        }
        pthread_mutex_unlock(mutex)
        if now { stopIfPending(index, stop) }
    }

    /// `all` was given up on: each registered slot still pending is stopped, once, and later
    /// registrations stop their slots at once.
    func stopPending() {
        pthread_mutex_lock(mutex)
        stops.pointee.requested = true
        let waiting = stops.pointee.list
        stops.pointee.list = []
        pthread_mutex_unlock(mutex)
        for slot in waiting { stopIfPending(slot.index, slot.stop) }
    }

    /// Stops slot `index` if it is still pending.
    func stopIfPending(_ index: Int, _ stop: @Sendable () -> Void) {
        if claim(index, as: Self.stopped) == Self.pending { stop() }
    }
}

/// A slot's stop, as a batch keeps it until `all` is given up on.
///
/// A struct, not a tuple: an array keeps a closure inside a tuple at its most general
/// abstraction, so each stop appended was wrapped in a reabstraction thunk, one allocation per
/// stop (callgrind, the service's batch request: one per backend call). Outside the generic
/// storage: nested, it would depend on `Value`, and every operation of its array would look the
/// array's metadata up at run time.
struct BatchSlotStop {
    let index: Int
    let stop: @Sendable () -> Void
}

/// What a batch's mutex guards: the stops registered, with their slots, and whether `all` was
/// given up on (by a consumer's request or a slot's failure), after which stops registered run
/// at once. Outside the generic storage, for the reason `BatchSlotStop` is.
struct BatchStops {
    var requested = false
    var list: [BatchSlotStop] = []
}
