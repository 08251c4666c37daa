import Petal
import Testing

@Suite("Describing: a description read while another thread resolves")
struct DescriptionRaceTests {
    @Test("a future described while it resolves shows either state whole, never a torn one")
    func futureWhileResolving() {
        let racer = Racer()
        defer { racer.stop() }
        // Longer than a small string, so the value is a heap object a torn read would reach.
        let answer = "the answer, forty-two, from the other thread"
        let fulfilled = "Future<String>(fulfilled: \(answer))"
        let rejected = "Future<String>(rejected: TestError(code: 9))"
        var seen: Set<String> = []
        for round in 0..<raceScaled(4_000) {
            let promise = Promise<String>()
            var described = ""
            var dumpedLines: [String] = []
            racer.round(
                round,
                {
                    spin(round % 64)
                    described = "\(promise.future)"
                    dumpedLines = dumped(promise.future)
                },
                {
                    spin((round / 64) % 64)
                    if round % 2 == 0 { promise.fulfil(with: answer) } else { promise.reject(with: TestError(9)) }
                })
            let resolved = round % 2 == 0 ? fulfilled : rejected
            #expect(described == "Future<String>(pending)" || described == resolved, "round \(round)")
            #expect([2, 3, 4].contains(dumpedLines.count), "round \(round): \(dumpedLines)")
            seen.insert(described == resolved ? "resolved" : "pending")
        }
        // One round in sixteen runs the two in each order, so both states are certain to be seen.
        #expect(seen == ["pending", "resolved"])
    }

    @Test("a batch described while its slots are fulfilled counts every slot once")
    func batchWhileFulfilling() {
        let racer = Racer()
        defer { racer.stop() }
        let slots = 4
        for round in 0..<raceScaled(2_000) {
            let batch = PromiseBatch<Int>(count: slots)
            var described = ""
            racer.round(
                round, { described = "\(batch)" },
                {
                    for index in 0..<slots { batch.fulfil(index, with: index) }
                })
            let counted = described.split(separator: ";")[0].split(separator: ":")[1].split(separator: ",")
                .compactMap { Int($0.split(separator: " ")[0]) }.reduce(0, +)
            #expect(counted == slots, "round \(round): \(described)")
            #expect(described.hasSuffix("all: pending)") || described.hasSuffix("all: fulfilled)"), "round \(round)")
        }
    }
}
