#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The thread that writes the default diagnostic handlers' lines, so that no reporting thread
/// ever waits for standard error.
///
/// Why a thread: write(2) blocks for as long as the pipe behind descriptor 2 is full, and a
/// resolving thread blocked inside `fulfil` because a log reader stopped reading is a hang in
/// the caller's service. The alternatives do not hold:
/// - `O_NONBLOCK` on descriptor 2 would change the open file description, which the process
///   shares with its parent shell and every process that inherited it: their writes would start
///   failing with `EAGAIN`.
/// - poll-then-write races: another thread or process can fill the pipe between the poll and
///   the write, and a line longer than the room the poll saw still blocks.
/// - `pwritev2(RWF_NOWAIT)` is Linux-only, and whether a pipe honours it depends on the kernel.
///
/// So a reporting thread only appends its line to a small bounded queue under this writer's
/// mutex and returns; that happens once per site (later repeats are only counted), so the lock
/// is off the common path. This thread, started on first use and kept for the life of the
/// process, writes the lines out and may block in write(2) for as long as the reader likes;
/// meanwhile the queue fills, and further lines are dropped and counted instead of waited for.
/// At exit, the process waits a moment (``exitGrace``) for queued lines, so that a program that
/// reports and exits at once still prints its line.
///
/// pthread primitives rather than `Synchronization.Mutex`, for ThreadSanitizer (see
/// ``PosixLock``).
final class DiagnosticWriter: @unchecked Sendable {
    // @unchecked: `queue`, `busy`, `threadStarted` and `retired` are only touched with
    // `monitor` locked; `descriptor` and `monitor` never change.

    /// The most lines that wait to be written; a line reported when the queue is full is dropped.
    static let capacity = 64

    /// How long exit waits for queued lines to be written.
    static let exitGrace = Duration.milliseconds(200)

    /// Where the lines go.
    let descriptor: Int32

    private let monitor = Monitor()
    private var queue: [String] = []
    /// The thread holds a batch it is writing.
    private var busy = false
    private var threadStarted = false
    /// Replaced (tests): accept no more lines; the thread ends once the queue is written.
    private var retired = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        try monitor.withLock(body)
    }

    /// Queues `line` (newline included) for the writer thread. Never blocks on the output.
    ///
    /// - Returns: `false` if the line was dropped: the queue is full, or the writer is retired.
    func enqueue(_ line: String) -> Bool {
        withLock {
            guard !retired, queue.count < Self.capacity else { return false }
            queue.append(line)
            if !threadStarted {
                threadStarted = true
                startThread()
            } else {
                monitor.broadcast()
            }
            return true
        }
    }

    /// Accepts no more lines; the thread ends once it has written those queued.
    func retire() {
        withLock {
            retired = true
            monitor.broadcast()
        }
    }

    /// Waits until every line queued so far has been written (or given up on after a write
    /// error), for at most `limit` if given.
    ///
    /// - Returns: `true` if everything was written in time.
    @discardableResult
    func waitUntilWritten(within limit: Duration? = nil) -> Bool {
        let deadline = limit.map { ContinuousClock.now.advanced(by: $0) }
        return withLock {
            while !queue.isEmpty || busy {
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

    // MARK: The writer thread

    private func startThread() {
        // The thread holds the writer while it runs.
        let status = startDetachedThread { self.run() }
        precondition(status == 0, "Petal: could not start the diagnostics writer thread: \(status)")
    }

    /// The thread's loop: take every queued line, write them with the mutex released, repeat.
    private func run() {
        var batch: [String] = []
        monitor.lock()
        while true {
            if queue.isEmpty {
                busy = false
                monitor.broadcast()
                if retired { break }
                monitor.wait()
                continue
            }
            swap(&batch, &queue)
            busy = true
            monitor.unlock()
            for line in batch where !writeAll(line) {
                DiagnosticOutput.droppedLines.increment()
            }
            batch.removeAll(keepingCapacity: true)
            monitor.lock()
        }
        monitor.unlock()
    }

    /// Writes all of `line`, waiting for the descriptor as long as it takes (this thread is the
    /// one that may wait). Returns `false` if the descriptor failed (closed, or no reader).
    private func writeAll(_ line: String) -> Bool {
        var line = line
        return line.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written >= 0 {
                    offset += written
                    continue
                }
                switch errno {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    // Someone gave us a non-blocking descriptor: wait for room here, not spin.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                default:
                    return false
                }
            }
            return true
        }
    }

}

/// Where the default handlers' lines go: one writer for the current output descriptor.
enum DiagnosticOutput {
    private struct State {
        var descriptor: Int32 = 2
        var writer: DiagnosticWriter?
        var exitFlushRegistered = false
    }

    private static let state = PosixLock(State())

    /// Lines dropped because the writer's queue was full or the output failed.
    static let droppedLines = AtomicCounter()

    /// Queues `line` for the output; drops and counts it if the writer is behind. Never blocks
    /// on the output.
    static func write(_ line: String) {
        // Enqueued with `state` held, so that once a new descriptor is set (tests) no line can
        // reach the retired writer after it was waited for.
        let queued = state.withLock { state -> Bool in
            if state.writer == nil {
                state.writer = DiagnosticWriter(descriptor: state.descriptor)
                if !state.exitFlushRegistered {
                    state.exitFlushRegistered = true
                    atexit { DiagnosticOutput.waitAtExit() }
                }
            }
            return state.writer.unsafelyUnwrapped.enqueue(line)
        }
        if !queued { droppedLines.increment() }
    }

    /// The descriptor lines go to (2 unless a test changed it).
    static var descriptor: Int32 {
        state.withLock { $0.descriptor }
    }

    /// Sends later lines to `descriptor`, then waits until the previous writer has written the
    /// lines it had queued, so its descriptor may be closed once this returns.
    static func redirect(to descriptor: Int32) {
        let previous = state.withLock { state -> DiagnosticWriter? in
            state.descriptor = descriptor
            defer { state.writer = nil }
            return state.writer
        }
        previous?.retire()
        previous?.waitUntilWritten()
    }

    /// Waits until the current writer has written every line queued so far.
    static func waitUntilWritten() {
        state.withLock { $0.writer }?.waitUntilWritten()
    }

    private static func waitAtExit() {
        state.withLock { $0.writer }?.waitUntilWritten(within: DiagnosticWriter.exitGrace)
    }
}
