import CPetal

/// The Swift side of the per-thread trampoline in `petal_trampoline.c`: inline work runs at once
/// unless the thread is already deep in nested inline callbacks, in which case it waits, in FIFO
/// order, for the outermost callback frame to return. The common path allocates nothing; a
/// deferral allocates one ``DeferredBlock``.
@usableFromInline
enum Trampoline {
    /// Runs `work` inline through the trampoline.
    @inlinable
    static func run(_ work: @escaping () -> Void) {
        if petal_trampoline_enter_fast() != 0 {
            work()
            petal_trampoline_leave_fast()
        } else {
            deferToOutermostFrame(work)
        }
    }

    /// Queues `work` behind the thread's other deferred work.
    @usableFromInline
    @inline(never)
    static func deferToOutermostFrame(_ work: @escaping () -> Void) {
        DeferredBlock.enqueue(DeferredClosure(work: work))
    }
}

/// Work the trampoline may defer: the data of one deferred call.
@usableFromInline
protocol TrampolineWork {
    /// Runs the work, once, on the thread that deferred it.
    func run()
}

/// A deferred closure (`InlineExecutionContext.execute`).
@usableFromInline
struct DeferredClosure: TrampolineWork {
    @usableFromInline
    let work: () -> Void

    @inlinable
    init(work: @escaping () -> Void) {
        self.work = work
    }

    @inlinable
    func run() { work() }
}

/// The non-generic start of every ``DeferredBlock``, which the C entry point reads.
@usableFromInline
struct DeferredHeader {
    /// The C queue's item, first, so the item's address is the block's.
    @usableFromInline
    var item: petal_deferred
    /// Runs and frees the block. Formed where the payload's type is concrete and capturing
    /// nothing, so it is a plain function pointer (no context to allocate) running
    /// specialised code.
    @usableFromInline
    var runAndFree: (UnsafeMutableRawPointer) -> Void

    @inlinable
    init(item: petal_deferred, runAndFree: @escaping (UnsafeMutableRawPointer) -> Void) {
        self.item = item
        self.runAndFree = runAndFree
    }
}

/// One deferred call in one allocation: the C queue item, the entry point and the data.
///
/// Why not a closure: capturing the data would allocate a context, and the C queue item a
/// second block; this block is both, and is freed before its work runs.
@usableFromInline
struct DeferredBlock<Work: TrampolineWork> {
    @usableFromInline
    var header: DeferredHeader
    @usableFromInline
    var work: Work

    @inlinable
    init(header: DeferredHeader, work: Work) {
        self.header = header
        self.work = work
    }

    /// Defers `work` to the outermost inline frame of this thread (or runs it now if none).
    @inlinable
    static func enqueue(_ work: Work) {
        let block = PlainAllocation.allocate(DeferredBlock.self)
        let address = UnsafeMutableRawPointer(block)
        let item = petal_deferred(
            next: nil,
            // One entry point for every block type: it calls the block's own runAndFree.
            work: { context in
                let block = context.unsafelyUnwrapped
                block.assumingMemoryBound(to: DeferredHeader.self).pointee.runAndFree(block)
            },
            context: address
        )
        block.initialize(
            to: DeferredBlock(header: DeferredHeader(item: item) { DeferredBlock.runAndFree($0) }, work: work)
        )
        assert(MemoryLayout<DeferredBlock>.offset(of: \.header) == 0)
        petal_trampoline_defer_item(address.assumingMemoryBound(to: petal_deferred.self))
    }

    @inlinable
    static func runAndFree(_ address: UnsafeMutableRawPointer) {
        let block = address.assumingMemoryBound(to: DeferredBlock.self)
        let work = block.move().work
        PlainAllocation.deallocate(block)
        work.run()
    }
}
