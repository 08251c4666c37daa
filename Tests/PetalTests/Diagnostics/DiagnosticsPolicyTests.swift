import CPetal
import Petal
import Testing

/// The ways to create a promise, each with a policy.
enum Creation: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case pending
    case fulfilled
    case rejected
    case cancelled

    func promise(_ policy: RepeatedResolutionPolicy, line: UInt) -> Promise<Int> {
        switch self {
        case .pending: Promise(onRepeatedResolution: policy, line: line)
        case .fulfilled: Promise(resolvedWith: .fulfilled(1), onRepeatedResolution: policy, line: line)
        case .rejected: Promise(resolvedWith: .rejected(TestError(1)), onRepeatedResolution: policy, line: line)
        case .cancelled: Promise(resolvedWith: .cancelled(indirectError: nil), onRepeatedResolution: policy, line: line)
        }
    }

    var testDescription: String { rawValue }
}

@Suite("Diagnostics: promises that race on purpose")
struct DiagnosticsPolicyTests {
    @Test("a promise created to ignore repeats reports and counts none of them", arguments: Creation.allCases)
    func ignoredRepeats(creation: Creation) {
        _ = repeatedResolutions
        let line = UInt(#line) * 1_000 + UInt(Creation.allCases.firstIndex(of: creation)!)
        let promise = creation.promise(.ignore, line: line)
        let wins = Counter()
        onThreads(4) { index in
            for round in 0..<scaled(100) {
                let won: Bool =
                    switch round % 4 {
                    case 0: promise.fulfil(with: index)
                    case 1: promise.reject(with: TestError(index))
                    case 2: promise.cancel()
                    default: promise.resolve(with: .fulfilled(round))
                    }
                if won { wins.increment() }
            }
        }
        #expect(wins.value == (creation == .pending ? 1 : 0))
        #expect(promise.isResolved)
        #expect(reports(forLine: line).isEmpty)
        #expect(repeatCount(atLine: line) == 0)
    }

    @Test("the same creation with the default policy reports every repeat", arguments: Creation.allCases)
    func reportedRepeats(creation: Creation) {
        _ = repeatedResolutions
        let line = UInt(#line) * 1_000 + UInt(Creation.allCases.firstIndex(of: creation)!)
        let promise = creation.promise(.report, line: line)
        if creation == .pending { #expect(promise.fulfil(with: 0)) }
        #expect(!promise.fulfil(with: 1))
        #expect(!promise.cancel())
        #expect(reports(forLine: line).map(\.attempt) == [.fulfil, .cancel])
        #expect(repeatCount(atLine: line) == 2)
    }

    @Test("the repeat policy costs the promise handle no bytes")
    func handleSize() {
        // Object header 16 + future 8 + site 32 (the policy sits in the StaticString's padding):
        // 56 bytes asked, which glibc serves from a 64-byte chunk with 56 usable (from a chunk of
        // that class, whatever earlier tests left free).
        for policy in [RepeatedResolutionPolicy.report, .ignore] {
            fillSmallChunkCache(through: 88)
            let promise = Promise<Int>(onRepeatedResolution: policy)
            let bytes = petal_allocation_size(Unmanaged.passUnretained(promise).toOpaque())
            #expect(bytes <= 56, "\(policy): \(bytes) usable bytes")
            promise.cancel()
        }
    }
}
