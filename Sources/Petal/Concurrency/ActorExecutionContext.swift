/// Runs callbacks and steps on an actor, one at a time, in the order they were submitted.
///
/// Pass it where any ``ExecutionContext`` goes (`on:`), and the work runs on the actor's
/// executor. The isolated forms of `then`, `whenFulfilled` and `whenResolved` (`isolatedTo:`) go
/// further: their closure is checked by the compiler as isolated to the actor, so it reads and
/// writes the actor's state with no `await`, no `assumeIsolated` and no `@unchecked`:
///
/// ```swift
/// actor Inventory {
///     var reserved = 0
/// }
/// let inventory = Inventory()
/// let onInventory = ActorExecutionContext(inventory)
///
/// let total: Future<Int> = order.then(isolatedTo: onInventory) { inventory, quantity in
///     inventory.reserved += quantity  // isolated: the compiler knows it runs on `inventory`
///     return inventory.reserved
/// }
/// ```
///
/// For the main actor, use the one shared ``ExecutionContext/mainActor`` context, whose forms
/// take `@MainActor` closures (a closure with an `isolated MainActor` parameter is isolated to the
/// main actor's instance, which the compiler does not treat as `@MainActor`).
///
/// Order: work submitted through one context runs in submission order, never two at once.
/// Two contexts on the same actor each keep their own order, not one between them: make one
/// context per actor and share it.
///
/// Cost: work that arrives while the context is idle starts one task that hops to the actor and
/// runs everything queued by then, and all that arrives while it runs, without suspending: a
/// stream of callbacks that never pauses holds the actor until it does, as a serial queue's
/// stream would.
///
/// The context keeps its actor alive while it lives: an actor that stores its own context in a
/// property makes a cycle, so keep the context beside the actor (in the object that owns both).
///
/// An executor that never runs a job: Swift concurrency gives an executor no way to give a
/// job back unrun (its job is not released, as a `DispatchQueue`'s dropped block would be), so
/// the work stays queued and its future pending, where a context that drops work cancels the
/// future with a ``DroppedWorkError``. Bound such work with a timeout, as any remote call.
public final class ActorExecutionContext<IsolatedActor: Actor>: ExecutionContext {
    /// The actor the work runs on.
    public let actor: IsolatedActor

    /// Work waiting for the actor, and whether a task is running it (or is on its way).
    private struct Queue {
        var pending: [@Sendable () -> Void] = []
        var draining = false
    }

    private let queue = PosixLock(Queue())

    /// A context that runs work on `actor`.
    ///
    /// - Parameter actor: The actor whose executor runs the work; kept alive by the context.
    public init(_ actor: IsolatedActor) {
        self.actor = actor
    }

    /// Queues `work` to run on the actor after the work submitted before it.
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let startsDrain = queue.withLock { queue in
            queue.pending.append(work)
            guard !queue.draining else { return false }
            queue.draining = true
            return true
        }
        guard startsDrain else { return }
        Task { await self.drain(on: actor) }
    }

    /// Runs the queued work in batches until none is left; then the next `execute` starts a task.
    ///
    /// Never suspends: a task that yielded the actor between batches came back to it through the
    /// global executor, a hop that could land on the actor's executor after anyone waiting for
    /// the actor to be idle had stopped looking (ASan caught the task left behind, in a test
    /// whose executor runs jobs only when asked).
    private func drain(on actor: isolated IsolatedActor) {
        while let batch = nextBatch() {
            for work in batch { work() }
        }
    }

    /// Takes all the queued work, or, with none queued, marks the context idle (in the same
    /// critical section, so work queued just after is never left without a task to run it).
    private func nextBatch() -> [@Sendable () -> Void]? {
        queue.withLock { queue in
            guard !queue.pending.isEmpty else {
                queue.draining = false
                return nil
            }
            var batch: [@Sendable () -> Void] = []
            swap(&batch, &queue.pending)
            return batch
        }
    }
}

/// The main actor's shared context: one queue, so all work submitted through it keeps one order.
private let sharedMainActorContext = ActorExecutionContext(MainActor.shared)

extension ExecutionContext where Self == ActorExecutionContext<MainActor> {
    /// Runs work on the main actor, in submission order; with it, `then`, `whenFulfilled` and
    /// `whenResolved` take `@MainActor` closures.
    public static var mainActor: ActorExecutionContext<MainActor> { sharedMainActorContext }
}
