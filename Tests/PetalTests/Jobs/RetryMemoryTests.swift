import Petal
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Heap bytes per retry waiting between attempts, measured over `count` of them in this
/// process: each one's first attempt rejected, its second due in an hour on a manual clock.
private func bytesPerPendingRetry(count: Int) -> Int {
    let clock = DeadlineClock.manual()
    let policy = RetryPolicy(attempts: 2, initialDelay: .seconds(3_600))
    let error = TestError(1)
    let failed = Future<Int>.rejected(with: error)
    failed.whenResolved { _ in }  // observed: no unobserved-failure report per attempt
    var retries: [Future<Int>] = []
    retries.reserveCapacity(count)
    let before = MemorySample.now().heap ?? 0
    for _ in 0..<count {
        retries.append(Future<Int>.retrying(policy, clock: clock) { failed })
    }
    let after = MemorySample.now().heap ?? 0
    precondition(clock.pendingDeadlineCount == count)
    // Every second attempt runs and fails, so that everything is freed before the process ends:
    // LeakSanitizer, at exit, would report what the pending retries hold.
    clock.advance(by: .seconds(3_600))
    precondition(retries.allSatisfy { $0.peek() != nil })
    retries.removeAll()
    return (after - before) / count
}

@Suite("Jobs: memory of a pending retry")
struct RetryMemoryTests {
    @Test("a retry waiting between attempts holds at most 512 bytes (509 measured)")
    func pendingRetryFootprint() async {
        // In a child process: the heap is measured there with no other test allocating.
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let bytes = bytesPerPendingRetry(count: 20_000)
            print("bytes per pending retry: \(bytes)")
            fflush(nil)  // precondition ends the process without flushing
            precondition(bytes <= 512, "a pending retry holds \(bytes) bytes")
        }
        print(String(decoding: result?.standardOutputContent ?? [], as: UTF8.self), terminator: "")
    }
}
