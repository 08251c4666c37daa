import CPetal
import Testing

@testable import Petal

/// The repeat cache (`petal_repeat_cache.h`): a thread's later repeats at a site, under the
/// default handler, are a count on the site's word and nothing more.
@Suite("Diagnostics: the repeat cache")
struct RepeatCacheTests {
    @Test("counts through every thread's cache add up exactly on the site's word, from eight threads at once")
    func cachedCountsAreExact() {
        let tally = SiteTally()
        let line = UInt(#line)
        let file = "RepeatCacheTests.swift"
        let key = SiteTally.Key.named(.repeatedResolution, "RepeatCacheTests.swift", line: line)
        let slot = tally.count(key, type: Int.self).slot
        let word = Shared(tally.countWord(of: slot))
        let threads = 8
        let rounds = scaled(5_000)
        let counted = Counter()
        file.withCString { text in
            let address = Shared(UnsafeRawPointer(text))
            onThreads(threads) { _ in
                // Each thread fills its own cache, as its first full report would.
                petal_repeat_cache_fill(address.value, line, word.value)
                for _ in 0..<rounds where petal_repeat_cache_count(address.value, line) != 0 { counted.increment() }
                // Another line in the same entry, or another file at this line, misses.
                #expect(petal_repeat_cache_count(address.value, line + 4) == 0)
                #expect(petal_repeat_cache_count(address.value + 1, line) == 0)
            }
        }
        #expect(counted.value == threads * rounds)
        #expect(tally.counts(of: .repeatedResolution).map(\.count) == [1 + threads * rounds])
        // The next numbered report numbers on from every count.
        #expect(tally.count(key, type: Int.self).occurrence == 2 + threads * rounds)
    }

    @Test("a handler that is not the default sees every repeat: the cache is off")
    func offUnderAnotherHandler() {
        _ = repeatedResolutions  // installs the test process's recording handler
        #expect(petal_atomic_word_load(petal_repeat_counting_flag()) == 0)
        let line = UInt(#line) * 1_000
        let promise = Promise<Int>(line: line)
        #expect(promise.fulfil(with: 1))
        for attempt in 0..<3 { #expect(!promise.fulfil(with: attempt)) }
        // Every repeat reached the handler, though this thread had reported at the site before.
        #expect(reports(forLine: line).map(\.occurrence) == [1, 2, 3])
        #expect(repeatCount(atLine: line) == 3)
    }
}

/// Moves an address into the threads of a test.
private struct Shared<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
