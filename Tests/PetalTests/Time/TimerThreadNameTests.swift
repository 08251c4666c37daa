import Foundation
import Testing

@testable import Petal

@Suite("Time: Petal's timer thread is named")
struct TimerThreadNameTests {
    #if os(Linux)
        @Test("a deadline's action runs on a thread named petal-timer, not its starter's name")
        func timerThreadName() throws {
            let abandoned = Promise<Int>()
            let name = Promise<String>()
            abandoned.future.timeout(after: .milliseconds(1)).whenResolved { _ in
                // The name of the thread this runs on: the timer thread, which resolves a timeout.
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "?"
                name.fulfil(with: comm.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            #expect(try name.future.wait().get() == "petal-timer")
            _ = abandoned.cancel()
        }
    #endif
}
