/// Work handed to an ``ExecutionContext``, with what to do instead if the context drops it.
///
/// Why: a context may release work without running it (an event loop shut down). The work is
/// the only thing that would resolve some future; that future must then be failed, or it and
/// everything chained below it stay pending forever. The only sign of a drop is the release
/// itself, so the work travels in this object, whose deinit runs `dropped` if `run` never did.
///
/// `@unchecked Sendable`: `work` and `dropped` are touched by one thread at a time: by the
/// context's thread in ``run()`` (at most once), and by whichever thread releases the object
/// last, in the deinit, which the reference count orders after the run.
final class DroppableWork: @unchecked Sendable {
    private var work: (@Sendable () -> Void)?
    private var dropped: (@Sendable () -> Void)?

    init(_ work: @escaping @Sendable () -> Void, ifDropped dropped: @escaping @Sendable () -> Void) {
        self.work = work
        self.dropped = dropped
    }

    /// Runs the work (once); from then on a release is not a drop.
    func run() {
        dropped = nil
        let work = self.work.take()
        work?()
    }

    deinit {
        dropped?()
    }
}

extension ExecutionContext {
    /// Hands `work` to the context; if the context releases it without running it, `dropped`
    /// runs instead, on the releasing thread.
    @usableFromInline
    func execute(_ work: @escaping @Sendable () -> Void, ifDropped dropped: @escaping @Sendable () -> Void) {
        let ticket = DroppableWork(work, ifDropped: dropped)
        // Captures only the ticket, which then serves as the closure's context: no box.
        execute { ticket.run() }
    }

    /// Runs `work`, which alone resolves `storage`, on this context: on `.inline`, at once on
    /// this thread (the closure is then inlined away: nothing allocated); otherwise handed over
    /// as ``execute(_:ifDropped:)`` does, with `storage` cancelled if the context drops it.
    ///
    /// Why: every start of work on a caller's context (`Future.start(on:executing:)`,
    /// `Future.startFollowing(on:executing:)`) makes this one choice.
    @inlinable
    @inline(__always)
    func execute<Value>(_ work: @escaping @Sendable () -> Void, resolving storage: FutureStorage<Value>) {
        if Self.self == InlineExecutionContext.self {
            work()
        } else {
            execute(work, ifDropped: dropped(storage, by: self))
        }
    }

    /// The error for work this context dropped.
    @usableFromInline
    var droppedWorkError: DroppedWorkError {
        DroppedWorkError(droppedBy: Self.self)
    }
}

/// What to do when `context` drops the work that would resolve `storage`: cancel it, saying so.
///
/// Captures the context's type, not the context: a context that holds its queued work (an event
/// loop) would otherwise be held by that work, a cycle for as long as the work waits.
@usableFromInline
func dropped<Value, Context: ExecutionContext>(
    _ storage: FutureStorage<Value>, by context: Context
) -> @Sendable () -> Void {
    // Unchecked: failing a storage moves no value, only an error, which is Sendable.
    let target = UncheckedSendableBox(storage)
    return { _ = target.value.fail(.cancelled, error: DroppedWorkError(droppedBy: Context.self)) }
}

extension DroppedWorkError {
    /// The error for work a context of type `context` dropped.
    init(droppedBy context: any ExecutionContext.Type) {
        self.init(context: String(describing: context))
    }
}
