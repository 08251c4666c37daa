#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the default handler's lines go: a thread that writes them, so that no reporting thread
/// ever waits for standard error.
///
/// Why a thread: write(2) blocks while the pipe behind descriptor 2 is full, and a resolving
/// thread blocked inside `fulfil` because a log reader stopped reading is a hang in the caller's
/// service. `O_NONBLOCK` on descriptor 2 would change the open file description shared with the
/// parent shell and every process that inherited it (their writes would fail with `EAGAIN`);
/// poll-then-write races with other writers; `pwritev2(RWF_NOWAIT)` is Linux-only, and pipes
/// honour it or not by kernel. So a reporting thread queues its line and returns (once per site:
/// later reports are only counted, so the lock is off the common path). The thread, started on
/// first use and kept for the life of the process, may block in write(2) as long as the reader
/// likes, while further lines are dropped and counted once 64 wait. Each line keeps the
/// descriptor it was queued for, so that a test can point the output elsewhere. At exit, the
/// process waits up to 200 ms for queued lines, so that a program that reports and exits at once
/// still prints its line.
final class DiagnosticOutput: @unchecked Sendable {
    // @unchecked: every `var` is only touched with `monitor` locked.

    static let shared = DiagnosticOutput()

    /// Lines dropped because the queue was full or the output failed.
    let dropped = AtomicCounter()

    private let monitor = Monitor()
    private var descriptor: Int32 = 2
    private var queue: [(descriptor: Int32, line: String)] = []
    /// How many lines were ever queued, and how many of those the thread is done with.
    private var queued = 0
    private var written = 0

    /// Queues `line` (newline included) for the thread; drops and counts it if 64 lines wait
    /// already. Never blocks on the output.
    func enqueue(_ line: String) {
        let accepted = monitor.withLock {
            guard queue.count < 64 else { return false }
            queue.append((descriptor, line))
            queued += 1
            if queued == 1 {
                // The thread holds the output while it runs: for the life of the process.
                let status = startDetachedThread { self.run() }
                precondition(status == 0, "Petal: could not start the diagnostics writer thread: \(status)")
                atexit { _ = DiagnosticOutput.shared.waitUntilWritten(within: .milliseconds(200)) }
            }
            monitor.broadcast()
            return true
        }
        if !accepted { dropped.increment() }
    }

    /// The descriptor later lines go to.
    var output: Int32 { monitor.withLock { descriptor } }

    /// Sends later lines to `next`, if given, then waits until every line queued before has been
    /// written (or given up on after a write error), for at most `limit` (`nil`: as long as it
    /// takes); returns whether they all were. Lines queued after the switch are not waited for:
    /// their descriptor may be a pipe nobody reads yet.
    @discardableResult
    func waitUntilWritten(within limit: Duration? = nil, switchingTo next: Int32? = nil) -> Bool {
        let deadline = limit.map { ContinuousClock.now.advanced(by: $0) }
        return monitor.withLock {
            descriptor = next ?? descriptor
            let target = queued
            while written < target {
                guard let deadline else {
                    monitor.wait()
                    continue
                }
                let now = ContinuousClock.now
                guard now < deadline else { return false }
                monitor.wait(for: now.duration(to: deadline))
            }
            return true
        }
    }

    /// The thread's loop: take every queued line, write them with the monitor released, repeat.
    private func run() {
        nameCurrentThread("petal-diagnose")
        monitor.lock()
        while true {
            guard !queue.isEmpty else {
                monitor.wait()
                continue
            }
            let batch = queue
            queue = []
            monitor.unlock()
            for (descriptor, line) in batch where !Self.writeAll(line, to: descriptor) { dropped.increment() }
            monitor.lock()
            written += batch.count
            monitor.broadcast()
        }
    }

    /// Writes all of `line`, waiting for the descriptor as long as it takes (this thread is the
    /// one that may wait). Returns `false` if the descriptor failed (closed, or no reader).
    private static func writeAll(_ line: String, to descriptor: Int32) -> Bool {
        var line = line
        return line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if count >= 0 {
                    offset += count
                } else if errno == EAGAIN || errno == EWOULDBLOCK {
                    // Someone gave us a non-blocking descriptor: wait for room here, not spin.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                } else if errno != EINTR {
                    return false
                }
            }
            return true
        }
    }
}

extension PetalDiagnostics {
    /// The descriptor the default handler writes to: 2, unless a test points it elsewhere.
    /// Setting it waits until the lines queued for the previous one are written, so that the
    /// caller may close it once the setter returns (drain it first if nobody reads it).
    package static var outputDescriptor: Int32 {
        get { DiagnosticOutput.shared.output }
        set { DiagnosticOutput.shared.waitUntilWritten(switchingTo: newValue) }
    }

}
