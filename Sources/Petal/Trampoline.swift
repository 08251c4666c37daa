import CPetal

/// The Swift side of the per-thread trampoline in `petal_trampoline.c`: inline work runs at once
/// unless the thread is already deep in nested inline callbacks, in which case it waits, in FIFO
/// order, for the outermost callback frame to return. The deferral path allocates a box; the
/// common path allocates nothing.
@usableFromInline
enum Trampoline {
    /// Runs `work` inline through the trampoline.
    @inlinable
    static func run(_ work: @escaping () -> Void) {
        if petal_trampoline_enter() != 0 {
            work()
            petal_trampoline_leave()
        } else {
            deferToOutermostFrame(work)
        }
    }

    /// Queues `work` behind the thread's other deferred work.
    @usableFromInline
    @inline(never)
    static func deferToOutermostFrame(_ work: @escaping () -> Void) {
        let box = Unmanaged.passRetained(DeferredWork(work)).toOpaque()
        let status = petal_trampoline_defer(
            { context in
                // Balances passRetained above: the queue held the box until now.
                Unmanaged<DeferredWork>.fromOpaque(context!).takeRetainedValue().work()
            },
            box
        )
        precondition(status == 0, "Petal: out of memory while deferring a callback")
    }
}

/// Carries a closure through the C queue, which stores only a pointer.
@usableFromInline
final class DeferredWork {
    let work: () -> Void

    init(_ work: @escaping () -> Void) {
        self.work = work
    }
}
