import Petal
import Testing

@Suite("Stack safety")
struct StackSafetyTests {
    @Test("a chain of a million inline callbacks, each resolving the next promise, completes")
    func millionLinkChain() {
        let links = deepChainLinks
        var promises: [Promise<Int>] = []
        promises.reserveCapacity(links)
        for _ in 0..<links { promises.append(Promise<Int>()) }
        let ran = Counter()
        for index in 0..<(links - 1) {
            let next = promises[index + 1]
            promises[index].future.whenFulfilled { value in
                ran.increment()
                next.fulfil(with: value + 1)
            }
        }
        promises[0].fulfil(with: 0)
        #expect(ran.value == links - 1)
        #expect(promises[links - 1].future.peek()?.value == links - 1)
    }

    @Test("a million callbacks each subscribing the next to a resolved future complete")
    func millionNestedSubscriptions() {
        let total = deepChainLinks
        let resolved = Future<Int>.fulfilled(with: 1)
        let ran = Counter()
        @Sendable func step(_ remaining: Int) {
            ran.increment()
            guard remaining > 1 else { return }
            resolved.whenFulfilled { _ in step(remaining - 1) }
        }
        resolved.whenFulfilled { _ in step(total) }
        #expect(ran.value == total)
    }
}
