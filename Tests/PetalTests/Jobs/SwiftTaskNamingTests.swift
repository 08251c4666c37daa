import Petal
import Testing

/// Petal is imported plainly: Swift's `Task`, `Task.sleep` and `Task.isCancelled` must still be
/// Swift's, unqualified (a library type named `Task` would shadow them).
@Suite("Jobs: Swift's Task is not shadowed")
struct SwiftTaskNamingTests {
    @Test("Task { }, Task.sleep and Task.isCancelled are Swift concurrency's")
    func unqualifiedTask() async throws {
        let ran = Promise<Int>()
        let task = Task {
            try await Task.sleep(for: .milliseconds(1))
            ran.fulfil(with: 1)
            return Task.isCancelled
        }
        let wasCancelled = try await task.value
        #expect(!wasCancelled)
        #expect(try await ran.future.value == 1)
        let cancelled = Task { () -> Bool in
            while !Task.isCancelled { await Task.yield() }
            return Task.isCancelled
        }
        cancelled.cancel()
        #expect(await cancelled.value)
    }
}
