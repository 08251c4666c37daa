/// Threads that must never block in ``Future/wait()``: a check a host installs, such as
/// PetalNIO's for event-loop threads.
///
/// Why it exists: a thread that runs an event loop (or any loop that resolves futures) and then
/// blocks waiting for a future stops the loop; if the future needs the loop to resolve, the
/// loop and every connection on it wait for ever. Petal cannot know which threads those are, so
/// a host that does says so here, and a blocking wait on such a thread stops the program with a
/// message naming the thread, as SwiftNIO's own `EventLoopFuture.wait()` does, instead of
/// hanging a server with no trace.
///
/// ```swift
/// import PetalNIO
/// BlockingWaits.forbidOnEventLoops()   // PetalNIO: any SwiftNIO event-loop thread
/// ```
public enum BlockingWaits {
    /// Says why the calling thread must not block, or `nil` when it may; `nil` (every thread may
    /// block) by default.
    ///
    /// Called on the waiting thread by ``Future/wait()``, and by ``Future/wait(timeout:)`` with a
    /// positive timeout, whether or not the future is resolved yet (a wait that happens to find
    /// its future resolved is the same bug, found sooner). Reading it takes no lock.
    public static var check: (@Sendable () -> String?)? {
        get { installed.withHandler { $0.body } }
        set { installed.replace(with: Check(body: newValue)) }
    }

    /// In a concrete struct, for the reason `HandlerSlot` gives.
    struct Check: Sendable {
        var body: (@Sendable () -> String?)?
    }

    private static let installed = HandlerSlot(Check(body: nil))

    /// Stops the program if the installed check forbids this thread to block.
    static func precheck() {
        guard let reason = installed.withHandler({ $0.body })?() else { return }
        preconditionFailure(
            "BUG DETECTED: a blocking wait on a Petal future from a thread that must not block (\(reason)); "
                + "it would stall that thread's loop, or deadlock it for ever. Await the future, or observe it "
                + "with a callback, instead.")
    }
}
