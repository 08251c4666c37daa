// The whole module is the Prototypes trait's: without it, this target compiles to nothing.
#if Prototypes
    import Petal
    import Synchronization

    /// The promises of one fan-out in one object: a prototype, kept to measure what the fan-out
    /// costs when its N calls share their promise instead of each making two objects (issue 37).
    ///
    /// A request that calls N backends with ``Petal/Promise`` makes 2N objects and subscribes
    /// `fulfillingWhen` to each future; about half of a call's cost there is making, counting
    /// and freeing those objects (`Benchmarks/README.md`, *The fan-out, per call*). Here a call
    /// is a slot: fulfilling it claims the slot with one compare-and-swap, writes the value and
    /// counts down; the last call fulfils ``all`` with every value, in slot order. A request
    /// makes a handful of objects, whatever N.
    ///
    /// What it keeps of `Promise` and `fulfillingWhen`: each slot is resolved once (a later
    /// fulfil returns `false`); a request for the cancellation of ``all`` (a timeout, a consumer
    /// giving up) cancels it and stops each slot still pending that registered a stop, once;
    /// dropping the batch with slots pending cancels ``all``. What a shipped design would add:
    /// rejecting and cancelling a slot, a handle per slot to hand to a completion handler, the
    /// diagnostics of a second resolution, and the tie of its protocol's spin model
    /// (`Tests/Model/petal_batch.pml`, which checks this prototype's) to the code.
    public final class PromiseBatch<Value: Sendable>: Sendable {
        /// Fulfilled with every slot's value, in slot order, when the last slot is fulfilled;
        /// cancelled when a consumer asks for it, or when the batch is dropped with slots pending.
        public let all: Future<[Value]>

        /// The promise of ``all``: the batch is the producers' side, so dropping it drops the
        /// promise, whose own rule cancels ``all`` if it is still pending.
        @usableFromInline
        let result = Promise<[Value]>()

        /// The slots, shared with the answer to a cancellation request (which must not hold the
        /// promise: that would keep it alive through its own future).
        @usableFromInline
        let core: PromiseBatchCore<Value>

        /// Makes `count` pending slots (at least one).
        public init(count: Int) {
            precondition(count > 0, "a batch has at least one slot")
            let core = PromiseBatchCore<Value>(count: count)
            self.core = core
            all = result.future
            result.cancelWhenRequested { core.stopPending() }
        }

        /// Fulfils slot `index` with `value`; returns whether this call resolved the slot.
        @inlinable
        @discardableResult
        public func fulfil(_ index: Int, with value: Value) -> Bool {
            core.fulfil(index, with: value, resolving: result)
        }

        /// Runs `stop` once if the cancellation of ``all`` is asked for while slot `index` is
        /// still pending (at once, if it already was): the slot is then never fulfilled.
        public func cancelWhenRequested(_ index: Int, stopping stop: @escaping @Sendable () -> Void) {
            core.addStop(index, stop)
        }
    }

    /// The slots of a ``PromiseBatch``: a state and a value each, and the count still pending.
    @usableFromInline
    final class PromiseBatchCore<Value: Sendable>: @unchecked Sendable {
        // @unchecked: `values[i]` is written once, by the thread whose compare-and-swap moved
        // `states[i]` from pending to fulfilled, before its release decrement of `remaining`;
        // it is read by the thread whose decrement reached zero (acquiring every earlier
        // decrement, a release sequence) and by the deinit (after the last release). The stops
        // are touched only under their lock (a pthread mutex, which ThreadSanitizer sees).
        @usableFromInline
        let count: Int
        @usableFromInline
        let states: UnsafeMutablePointer<Atomic<Int>>
        @usableFromInline
        let values: UnsafeMutablePointer<Value>
        @usableFromInline
        let remaining: Atomic<Int>
        private let stops = PosixLock<(requested: Bool, waiting: [(Int, @Sendable () -> Void)])>((false, []))

        @inlinable
        static var pending: Int { 0 }
        @inlinable
        static var fulfilled: Int { 1 }
        @inlinable
        static var stopped: Int { 2 }

        init(count: Int) {
            self.count = count
            remaining = Atomic(count)
            states = .allocate(capacity: count)
            for index in 0..<count { (states + index).initialize(to: Atomic(Self.pending)) }
            values = .allocate(capacity: count)
        }

        @inlinable
        func fulfil(_ index: Int, with value: Value, resolving result: Promise<[Value]>) -> Bool {
            precondition(index >= 0 && index < count, "slot \(index) of a batch of \(count)")
            // Relaxed: the claim decides who writes the value; the decrement below publishes it.
            guard
                states[index].compareExchange(expected: Self.pending, desired: Self.fulfilled, ordering: .relaxed)
                    .exchanged
            else { return false }
            (values + index).initialize(to: value)
            // Acquiring and releasing: the value above happens before the last decrement, which
            // then sees every slot's value.
            if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                result.fulfil(with: Array(UnsafeBufferPointer(start: values, count: count)))
            }
            return true
        }

        func addStop(_ index: Int, _ stop: @escaping @Sendable () -> Void) {
            precondition(index >= 0 && index < count, "slot \(index) of a batch of \(count)")
            let now = stops.withLock { stops in
                if stops.requested { return true }
                stops.waiting.append((index, stop))
                return false
            }
            if now { stopIfPending(index, stop) }
        }

        /// Answers the request for the cancellation of `all`: each registered slot still pending
        /// is stopped, once.
        func stopPending() {
            let waiting = stops.withLock { stops in
                stops.requested = true
                defer { stops.waiting = [] }
                return stops.waiting
            }
            for (index, stop) in waiting { stopIfPending(index, stop) }
        }

        private func stopIfPending(_ index: Int, _ stop: @Sendable () -> Void) {
            // Relaxed: the slot's value is never read once it is stopped.
            if states[index].compareExchange(expected: Self.pending, desired: Self.stopped, ordering: .relaxed)
                .exchanged
            {
                stop()
            }
        }

        deinit {
            for index in 0..<count where states[index].load(ordering: .relaxed) == Self.fulfilled {
                (values + index).deinitialize(count: 1)
            }
            values.deallocate()
            states.deinitialize(count: count)
            states.deallocate()
        }
    }
#endif
