import Dispatch
import Foundation
import Synchronization

/// T threads that run one job together, many times, without creating a thread per run.
///
/// The calling thread is worker 0. Idle workers block on a semaphore rather than spin, so a pool
/// left over from an earlier benchmark does not steal a core from the next one. A round wakes its
/// workers in its set-up (`wake`), and they wait at a start line until `run` hands them the job:
/// waking a blocked thread takes the scheduler 18-28 µs here, longer than many rounds' whole
/// work, and the same for every contender, so left inside the measurement it pulls every ratio
/// towards 1.0x.
public final class WorkerPool: @unchecked Sendable {
    // @unchecked: `job` is written by the coordinator before it opens the start line (a
    // releasing store) and read by the workers after they see it open (an acquiring load);
    // `awake` and `runs` belong to the coordinator alone.
    public let threads: Int
    private var job: (@Sendable (Int) -> Void)?
    private var awake = false
    private var runs = 0
    private let wakeUps: [DispatchSemaphore]
    private let atStartLine = Atomic<Int>(0)
    private let startLine = Atomic<Int>(0)
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
        var runs = 0
        while true {
            wakeUps[index - 1].wait()
            atStartLine.add(1, ordering: .releasing)
            runs += 1
            while startLine.load(ordering: .acquiring) < runs { sched_yield() }
            job!(index)
            finished.add(1, ordering: .releasing)
        }
    }

    /// Wakes the workers and returns when every one waits at the start line for the next `run`;
    /// a round calls it from its set-up, outside the measurement. Idempotent until that `run`.
    public func wake() {
        guard !awake else { return }
        awake = true
        atStartLine.store(0, ordering: .relaxed)
        for wakeUp in wakeUps { wakeUp.signal() }
        while atStartLine.load(ordering: .acquiring) < threads - 1 { sched_yield() }
    }

    /// Runs `job(index)` on every worker, the caller being index 0; returns when all are done.
    /// Wakes the workers first unless `wake` already has.
    public func run(_ job: @escaping @Sendable (Int) -> Void) {
        wake()
        awake = false
        self.job = job
        arrived.store(0, ordering: .relaxed)
        finished.store(0, ordering: .relaxed)
        runs += 1
        startLine.store(runs, ordering: .releasing)
        job(0)
        while finished.load(ordering: .acquiring) < threads - 1 { sched_yield() }
    }

    /// Inside a job: waits until every worker has reached this point.
    public func startTogether() {
        arrived.add(1, ordering: .acquiringAndReleasing)
        while arrived.load(ordering: .acquiring) < threads { sched_yield() }
    }
}
