import Dispatch
import Foundation
import Petal
import Testing

/// This file imports Petal next to Foundation and Dispatch and uses, unqualified, the names Swift
/// users write daily. If Petal declared any of them, this would stop compiling or pick Petal's.
@Suite("Names")
struct NamingTests {
    @Test("Petal shadows none of the everyday names of Swift, Foundation and Dispatch")
    func nothingShadowed() async throws {
        let task = Task { 40 + 2 }
        #expect(await task.value == 42)
        let result: Result<Int, any Error> = .success(1)
        #expect(try result.get() == 1)
        let outcome: Outcome<Int> = .rejected(CancellationError())
        #expect(outcome.error is CancellationError)
        let operation = BlockOperation {}
        operation.start()
        #expect(operation.isFinished)
        let queue: DispatchQueue = .global()
        let context: any ExecutionContext = queue
        #expect((context as? DispatchQueue) === queue)
    }
}
