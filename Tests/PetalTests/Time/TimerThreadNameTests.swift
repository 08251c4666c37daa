import Foundation
import Testing

@testable import Petal

@Suite("Time: Petal's timer thread is named")
struct TimerThreadNameTests {
    #if os(Linux)
        @Test("a deadline's action runs on a thread named petal-timer, not its starter's name")
        func timerThreadName() throws {
            // If the deadline passes before the callback is subscribed (a loaded machine can hold
            // this thread that long), the callback runs here, inline, and there is no timer
            // thread's name to read: that round is inconclusive (nil) and runs again.
            var name: String?
            for _ in 0..<100 where name == nil {
                let abandoned = Promise<Int>()
                let observed = Promise<String?>()
                let subscribed = Counter()
                abandoned.future.timeout(after: .milliseconds(1)).whenResolved { _ in
                    guard subscribed.value == 1 else {
                        observed.fulfil(with: nil)
                        return
                    }
                    // The thread this runs on: the timer thread, which resolves a timeout.
                    let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
                    observed.fulfil(with: comm.trimmingCharacters(in: .whitespacesAndNewlines))
                }
                subscribed.increment()
                name = try observed.future.wait().get()
                _ = abandoned.cancel()
            }
            #expect(name == "petal-timer")
        }
    #endif
}
