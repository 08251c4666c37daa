import Dispatch
import Foundation
import Synchronization

/// T threads that run one job together, many times, without creating a thread per run.
///
/// The calling thread is worker 0. Idle workers block on a semaphore rather than spin, so a pool
/// left over from an earlier benchmark does not steal a core from the next one; inside a run,
/// workers meet at a spinning start barrier so their work overlaps as much as it can.
public final class WorkerPool: @unchecked Sendable {
    // @unchecked: `job` is written by the coordinator before it signals the workers, and read
    // by them after the wake-up, which orders the two (semaphores synchronise).
    public let threads: Int
    private var job: (@Sendable (Int) -> Void)?
    private let wakeUps: [DispatchSemaphore]
    private let arrived = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)

    private static let pools = Mutex<[Int: WorkerPool]>([:])

    /// The shared pool of `threads` workers (created on first use, kept for the process).
    public static func shared(threads: Int) -> WorkerPool {
        pools.withLock { pools in
            if let pool = pools[threads] { return pool }
            let pool = WorkerPool(threads: threads)
            pools[threads] = pool
            return pool
        }
    }

    private init(threads: Int) {
        precondition(threads >= 1)
        self.threads = threads
        wakeUps = (1..<max(threads, 1)).map { _ in DispatchSemaphore(value: 0) }
        for index in 1..<threads {
            let thread = Thread { [unowned self] in self.work(index) }
            thread.name = "petal-bench-\(threads)-\(index)"
            thread.start()
        }
    }

    private func work(_ index: Int) {
        while true {
            wakeUps[index - 1].wait()
            job!(index)
            finished.add(1, ordering: .releasing)
        }
    }

    /// Runs `job(index)` on every worker, the caller being index 0; returns when all are done.
    public func run(_ job: @escaping @Sendable (Int) -> Void) {
        self.job = job
        arrived.store(0, ordering: .relaxed)
        finished.store(0, ordering: .relaxed)
        for wakeUp in wakeUps { wakeUp.signal() }
        job(0)
        while finished.load(ordering: .acquiring) < threads - 1 { sched_yield() }
    }

    /// Inside a job: waits until every worker has reached this point.
    public func startTogether() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < threads { sched_yield() }
    }
}
