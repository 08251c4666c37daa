/// One input of ``FutureCompletions`` resolved: which input (its position in the collection
/// given), and how.
public struct FutureCompletion<Value> {
    /// The input's position in the collection the completions were made of.
    public let index: Int
    /// How it resolved.
    public let outcome: Outcome<Value>

    /// A completion of the input at `index`, with `outcome`.
    public init(index: Int, outcome: Outcome<Value>) {
        self.index = index
        self.outcome = outcome
    }
}

extension FutureCompletion: Sendable where Value: Sendable {}

extension Future where Value: Sendable {
    /// The outcomes of `futures` in the order they resolve, as an `AsyncSequence`: what
    /// `TaskGroup.next()` gives a task group, for futures.
    ///
    /// ```swift
    /// let replicas = addresses.map { fetch(key, from: $0) }
    /// for await completion in Future.completions(of: replicas) {
    ///     if case .fulfilled(let value) = completion.outcome { return value }  // the first answer
    /// }   // leaving the loop asks the other replicas' work to stop
    /// ```
    ///
    /// - Each input's completion comes once; the sequence ends after the last. The order:
    ///   making the iterator subscribes to the inputs one by one, in the collection's order, and
    ///   completions come in the order their callbacks run. So every input that resolves after
    ///   the iterator was made comes in the order it resolved (the order of its resolving
    ///   thread's callback), after every input that resolved before; inputs resolved before the
    ///   iterator was made come first, in the collection's order. An input that resolves while
    ///   the iterator is being made comes in its resolution order if the iterator had subscribed
    ///   to it, and in the collection's order if not: the time of a resolution nobody subscribed
    ///   to is not recorded anywhere, so it cannot be placed.
    /// - Giving up on the rest: when the loop is left early (its iterator dropped), or the
    ///   iterating task is cancelled, the sequence votes on every input still pending, as a
    ///   chained future's consumer does (see <doc:Cancellation>): the work of an input that
    ///   nobody else waits for is asked to stop. A cancelled task's `next()` returns `nil`.
    /// - Cost: one callback on each input, subscribed when iteration begins (a sequence never
    ///   iterated costs nothing); memory bounded by the number of inputs. Iterating the sequence
    ///   twice subscribes twice.
    public static func completions(of futures: some Collection<Future<Value>>) -> FutureCompletions<Value> {
        FutureCompletions(inputs: Array(futures))
    }
}

/// The outcomes of a collection of futures, in the order they resolve (see
/// ``Future/completions(of:)``).
public struct FutureCompletions<Value: Sendable>: AsyncSequence, Sendable {
    /// A completion: which input, and its outcome.
    public typealias Element = FutureCompletion<Value>
    /// Never: errors are in each completion's outcome.
    public typealias Failure = Never

    let inputs: [Future<Value>]

    /// Subscribes to every input: their completions queue up from now on.
    public func makeAsyncIterator() -> Iterator {
        Iterator(lease: CompletionLease(CompletionQueue(inputs)))
    }

    /// Iterates the completions; dropping it before the end gives up on the inputs still
    /// pending.
    public struct Iterator: AsyncIteratorProtocol {
        /// Held by the iterator (and its copies) only: its deinit is the consumer leaving.
        let lease: CompletionLease<Value>
        private var remaining: Int

        init(lease: CompletionLease<Value>) {
            self.lease = lease
            remaining = lease.queue.count
        }

        /// The next input to resolve, waiting for it if none is ready; `nil` once every input
        /// has come, or once the task is cancelled (which gives up on the inputs still pending).
        public mutating func next() async -> FutureCompletion<Value>? {
            guard remaining > 0 else { return nil }
            guard !Task.isCancelled else {
                lease.queue.cancel()
                return nil
            }
            let queue = lease.queue
            let completion = await withTaskCancellationHandler {
                await queue.take()
            } onCancel: {
                queue.cancel()
            }
            if completion != nil { remaining -= 1 } else { remaining = 0 }
            return completion
        }
    }
}

/// The completions of ``FutureCompletions``' inputs as they come, and the one consumer's wait.
final class CompletionQueue<Value: Sendable>: Sendable {
    /// The inputs counted as dependents (those whose requests reach a producer): the ones a
    /// give-up votes on.
    private let counted: [Future<Value>]
    let count: Int
    private let state: PosixLock<State>

    struct State {
        /// Completions come and not taken yet, oldest first from `head`.
        var ready: [FutureCompletion<Value>] = []
        var head = 0
        /// The consumer, waiting for the next completion.
        var waiter: CheckedContinuation<FutureCompletion<Value>?, Never>?
        /// The consumer gave up (its task was cancelled, or it left): nothing more is kept.
        var gaveUp = false
    }

    init(_ inputs: [Future<Value>]) {
        count = inputs.count
        var counted: [Future<Value>] = []
        for input in inputs where input.storage.propagatesRequests {
            if input.storage.addDependent() { counted.append(input) }
        }
        self.counted = counted
        var initial = State()
        initial.ready.reserveCapacity(inputs.count)
        state = PosixLock(initial)
        for (index, input) in inputs.enumerated() {
            input.storage.subscribe(
                .resolved { [self] outcome in deliver(FutureCompletion(index: index, outcome: outcome)) })
        }
    }

    private func deliver(_ completion: FutureCompletion<Value>) {
        let waiter = state.withLock { state -> CheckedContinuation<FutureCompletion<Value>?, Never>? in
            if state.gaveUp { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.ready.append(completion)
            return nil
        }
        waiter?.resume(returning: completion)
    }

    /// The next completion, at once if one is ready; `nil` if the consumer gave up.
    func take() async -> FutureCompletion<Value>? {
        if let ready = state.withLock({ Self.pop(&$0) }) { return ready }
        return await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> FutureCompletion<Value>?? in
                if let ready = Self.pop(&state) { return .some(ready) }
                if state.gaveUp { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    private static func pop(_ state: inout State) -> FutureCompletion<Value>? {
        guard state.head < state.ready.count else { return nil }
        let completion = state.ready[state.head]
        state.head += 1
        if state.head == state.ready.count {
            state.ready.removeAll(keepingCapacity: true)
            state.head = 0
        }
        return completion
    }

    /// The consumer's task was cancelled: its wait ends with `nil`, and the inputs still
    /// pending are given up on.
    func cancel() {
        giveUp()
    }

    /// Once: drops what is queued, ends the wait, and votes on every counted input (a vote on
    /// one resolved already changes nothing).
    func giveUp() {
        let (first, waiter) = state.withLock { state in
            defer {
                state.gaveUp = true
                state.waiter = nil
                state.ready = []
                state.head = 0
            }
            return (!state.gaveUp, state.waiter)
        }
        waiter?.resume(returning: nil)
        guard first else { return }
        for input in counted { input.storage.receiveVote() }
    }
}

/// The consumer's hold on a ``CompletionQueue``: the inputs' callbacks hold the queue until they
/// run, so the queue cannot tell when its consumer leaves; this, held by the iterator alone,
/// can.
final class CompletionLease<Value: Sendable>: Sendable {
    let queue: CompletionQueue<Value>

    init(_ queue: CompletionQueue<Value>) {
        self.queue = queue
    }

    deinit {
        // The iterator is gone: the inputs still pending are given up on.
        queue.giveUp()
    }
}
