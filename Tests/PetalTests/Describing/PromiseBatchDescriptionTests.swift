import Petal
import Testing

@Suite("Describing: a batch says how many slots are in each state, and how all stands")
struct PromiseBatchDescriptionTests {
    @Test("a batch with some slots fulfilled counts them and shows all pending")
    func someFulfilled() {
        let line: UInt = #line + 1
        let batch = PromiseBatch<Int>(count: 3)
        batch.fulfil(0, with: 10)
        let site = "\(#fileID):\(line)"
        #expect(printed(batch) == "PromiseBatch<Int>(3 slots: 1 fulfilled, 2 pending; all: pending)")
        #expect(
            batch.debugDescription
                == "Petal.PromiseBatch<Swift.Int>(3 slots: 1 fulfilled, 2 pending; slots: [fulfilled, pending, pending]; "
                + "all: Petal.Future<Swift.Array<Swift.Int>>(pending); created at \(site))")
        #expect(
            dumped(batch) == [
                "▿ \(batch.debugDescription) #0", "  - count: 3", "  ▿ slots: 3 elements", "    - \"fulfilled\"",
                "    - \"pending\"", "    - \"pending\"", "  ▿ all: Petal.Future<Swift.Array<Swift.Int>>(pending)",
                "    - state: \"pending\"",
            ])
    }

    @Test("a failed slot and the slots it stopped are counted, and all shows the indirect error")
    func failedAndStopped() {
        let batch = PromiseBatch<Int>(count: 4)
        batch.fulfil(0, with: 10)
        batch.cancelWhenRequested(2) {}
        batch.reject(1, with: TestError(2))
        #expect(
            "\(batch)"
                == "PromiseBatch<Int>(4 slots: 1 fulfilled, 1 failed, 1 stopped, 1 pending; "
                + "all: cancelled, indirect error: TestError(code: 2))")
        #expect(batch.debugDescription.contains("slots: [fulfilled, failed, stopped, pending]"))
        #expect(
            batch.debugDescription.contains(
                "all: Petal.Future<Swift.Array<Swift.Int>>(cancelled, indirect error: PetalTests.TestError(code: 2))"))
        #expect(
            Array(dumped(batch).suffix(4)) == [
                "  ▿ all: Petal.Future<Swift.Array<Swift.Int>>(cancelled, indirect error: PetalTests.TestError(code: 2))",
                "    - state: \"cancelled\"", "    ▿ indirectError: PetalTests.TestError", "      - code: 2",
            ])
    }

    @Test("a batch whose slots are all fulfilled shows all fulfilled: its values in debugDescription and dump only")
    func allFulfilled() {
        let batch = PromiseBatch<Int>(count: 2)
        batch.fulfil(1, with: 20)
        batch.fulfil(0, with: 10)
        #expect("\(batch)" == "PromiseBatch<Int>(2 slots: 2 fulfilled; all: fulfilled)")
        #expect(batch.debugDescription.contains("all: Petal.Future<Swift.Array<Swift.Int>>(fulfilled: [10, 20])"))
        #expect(
            Array(dumped(batch).suffix(5)) == [
                "  ▿ all: Petal.Future<Swift.Array<Swift.Int>>(fulfilled: [10, 20])", "    - state: \"fulfilled\"",
                "    ▿ value: 2 elements", "      - 10", "      - 20",
            ])
    }

    @Test("a batch cancelled by a consumer's request shows its registered slots stopped")
    func requested() {
        let batch = PromiseBatch<Int>(count: 2)
        batch.cancelWhenRequested(0) {}
        batch.all.requestCancellation()
        #expect("\(batch)" == "PromiseBatch<Int>(2 slots: 1 stopped, 1 pending; all: cancelled)")
    }

    @Test("an empty batch and a batch of one are described in the singular and plural they need")
    func emptyAndSingle() {
        #expect("\(PromiseBatch<Int>(count: 0))" == "PromiseBatch<Int>(0 slots; all: fulfilled)")
        #expect("\(PromiseBatch<Int>(count: 1))" == "PromiseBatch<Int>(1 slot: 1 pending; all: pending)")
    }

    @Test("debugDescription lists the first 16 slots and counts the rest; dump lists as many as it is asked")
    func largeBatch() {
        let batch = PromiseBatch<Int>(count: 40)
        batch.fulfil(39, with: 1)
        let listed = Array(repeating: "pending", count: 16).joined(separator: ", ")
        #expect(batch.debugDescription.contains("40 slots: 1 fulfilled, 39 pending; slots: [\(listed), … 24 more];"))
        let lines = dumped(batch, maxItems: 6)
        #expect(
            lines[1...5] == [
                "  - count: 40", "  ▿ slots: 40 elements", "    - \"pending\"", "    - \"pending\"",
                "    - \"pending\"",
            ])
        #expect(lines[6].hasSuffix("(37 more children)"))
    }
}
