import CPetal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Counts reports per site and kind for the life of the process: a fixed table, no lock, and no
/// allocation on the counting path.
///
/// Why no lock: the losing path of every resolution race counts a repeat, from any number of
/// threads at once; a lock there would serialise every loser of every race. So a count is a
/// hash, a short probe and one atomic add on the site's own word.
///
/// Why this shape: open addressing over ``capacity`` slots of four words (detail, identity, type,
/// count), each written once. A site's ``Key`` is two words, too wide for one compare-and-swap,
/// so a slot is claimed field by field, detail then identity, each by a compare-and-swap from 0
/// that any thread whose key has that value may win. A field holding another value sends the
/// thread on to the next slot; one holding its own, written by anyone, lets it go on. Fields are
/// final once written, so all threads with one key stop at the same slot, and a claimer stalled
/// half-way blocks nobody. A key that finds neither itself nor a free field within
/// ``probeLimit`` slots never will: it is counted in its kind's overflow slot, `other sites`.
/// The claims are checked by `Tests/Model/petal_site_tally.pml`: one key, one slot; two keys,
/// never one.
///
/// Promise sites that fail take a slot too, before anything is reported: its number, in the 31
/// bits a future's header has to spare, is how an unobserved failure names the promise it came
/// from (see ``FutureStorage/failureWord``). Hence 1,024 slots (32 KiB), never freed.
final class SiteTally: @unchecked Sendable {
    // @unchecked: `words` is only touched through C atomics, but for the overflow slots' detail
    // words, written by `init` before the tally is shared.

    /// What a site is counted by: two words, never 0, for every kind.
    struct Key {
        /// A text's address (a promise's `#fileID`, a parameter's name), a type, or 1 for the
        /// timer thread.
        let identity: UInt
        /// The kind's tag in the low four bits; above it a promise site's line and file-name
        /// length (capped at 255), a parameter's name length, or an error type.
        let detail: UInt

        var tag: UInt { detail & 15 }

        /// The kind (off the counting path: this searches).
        var kind: PetalDiagnostic.Kind {
            PetalDiagnostic.Kind.allCases.first { Self.tag(of: $0) == tag } ?? .unobservedFailure
        }

        /// Whether `identity` is a text, the same when its characters are (a literal may have
        /// two copies, in the module that wrote it and in one that inlined it): for promise sites
        /// and parameters, tags 1, 3, 4, 6 and 7, the bits set here.
        var isText: Bool { (0b1101_1010 >> tag) & 1 != 0 }

        /// The tag of unobserved failures counted by value and error type: after the kinds'.
        private static var failureTag: UInt { 8 }

        /// A site named by a text: a promise's creation site, its `#fileID` and line; or, with no
        /// line, a parameter, its name.
        static func named(_ kind: PetalDiagnostic.Kind, _ text: StaticString, line: UInt = 0) -> Key {
            let length = UInt(min(text.utf8CodeUnitCount, 255))
            return Key(identity: address(of: text), detail: line &<< 12 | length << 4 | tag(of: kind))
        }

        /// A job type.
        static func job(_ type: Any.Type) -> Key {
            Key(identity: UInt(bitPattern: ObjectIdentifier(type)), detail: tag(of: .repeatedJobStart))
        }

        /// The timer thread.
        static var timer: Key { Key(identity: 1, detail: tag(of: .lateTimer)) }

        /// An unobserved failure: at the promise site numbered `site` (see
        /// ``SiteTally/slot(of:type:)``), or with none (0), the pair of value and error types.
        static func failure(site: UInt32, valueType: Any.Type, error: any Error) -> Key {
            if site != 0 { return PetalDiagnostics.tally.key(at: Int(site) - 1).key }
            let errorType = UInt(bitPattern: ObjectIdentifier(type(of: error)))
            return Key(identity: UInt(bitPattern: ObjectIdentifier(valueType)), detail: errorType << 4 | failureTag)
        }

        private static func tag(of kind: PetalDiagnostic.Kind) -> UInt {
            switch kind {
            case .repeatedResolution: 1
            case .repeatedJobStart: 2
            case .abandonedPromise: 3
            case .unobservedFailure: 4
            case .lateTimer: 5
            case .adjustedArgument: 6
            case .circuitBreakerStateChanged: 7
            }
        }

        /// The site this key names; `type` names a promise site (the first value type counted).
        func site(type: Any.Type?) -> PetalDiagnostic.Site {
            switch kind {
            case .repeatedJobStart: .init(name: "\(Self.metatype(at: identity))")
            case .lateTimer: .init(name: "timer thread")
            case .adjustedArgument, .circuitBreakerStateChanged: .init(name: Self.text(at: identity))
            case .unobservedFailure where tag == Self.failureTag:
                .init(name: "Future<\(Self.metatype(at: identity))>, \(Self.metatype(at: detail >> 4))")
            default:
                .init(
                    name: "Promise<\(type.map { "\($0)" } ?? "?")>", fileID: Self.text(at: identity), line: detail >> 12
                )
            }
        }

        /// A literal's address. A one-scalar literal (`fileID: "x"`) has none: all count as one.
        private static func address(of string: StaticString) -> UInt {
            UInt(bitPattern: (string.hasPointerRepresentation ? string : "(one character)").utf8Start)
        }

        /// A literal's text: it ends with a NUL.
        private static func text(at word: UInt) -> String {
            String(cString: UnsafePointer<CChar>(bitPattern: word).unsafelyUnwrapped)
        }

        fileprivate static func metatype(at word: UInt) -> Any.Type { unsafeBitCast(word, to: Any.Type.self) }
    }

    static var capacity: Int { 1 << capacityBits }
    private static var capacityBits: Int { 10 }
    /// The most slots a key looks at; it is counted as `other sites` if none is its own or free.
    private static var probeLimit: Int { 32 }

    /// The slots, then one overflow slot per tag (1 to 8), four words each.
    private let words: UnsafeMutablePointer<petal_atomic_word>

    init() {
        let count = (Self.capacity + 9) * 4
        words = .allocate(capacity: count)
        words.initialize(repeating: petal_atomic_word(value: 0), count: count)
        for tag in 1...8 { words[(Self.capacity + tag) * 4] = petal_atomic_word(value: petal_word(tag)) }
    }

    deinit {
        // Only tests make tallies of their own (and free them); the process-wide one lives as
        // long as the process. The words are trivial: nothing to deinitialise.
        words.deallocate()
    }

    private func field(_ slot: Int, _ field: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        words + (slot &* 4 &+ field)
    }

    /// Counts one report at `key`'s site: returns the slot that counted it (the kind's overflow
    /// slot if the table has no room for the site), and its number there: 1 for the first, and
    /// each a different number, even when several threads count at once.
    func count(_ key: Key, type: Any.Type?) -> (slot: Int, occurrence: Int) {
        let slot = slot(of: key, type: type) ?? Self.capacity &+ Int(key.tag)
        // FULL (atomicAdd): orders this thread's claim or match of the slot's fields before the
        // count, for `counts(of:)`, which reads the count first.
        return (slot, Int(atomicAdd(1, to: field(slot, 3))) &+ 1)
    }

    /// The count word of a slot `count` returned, for counting there without a key (a promise
    /// site's later repeats under the default handler, `petal_repeat_cache.h`): the tally is
    /// never freed, so the address stays good.
    func countWord(of slot: Int) -> UnsafeMutablePointer<petal_atomic_word> {
        field(slot, 3)
    }

    /// The slot counting `key`, claimed now if it has none yet; `nil` if the table has no room
    /// for it. `type`, for a promise site, names the site if it is the first one counted there.
    @inline(__always)
    func slot(of key: Key, type: Any.Type?) -> Int? {
        let golden = UInt(truncatingIfNeeded: 0x9E37_79B9_7F4A_7C15 as UInt64)
        // Fibonacci hashing: the top bits of the product spread nearby lines and addresses. A
        // text's address is left out: two copies of one text must probe the same slots.
        let start = Int(
            ((key.isText ? key.detail : key.identity ^ key.detail) &* golden) >> (UInt.bitWidth - Self.capacityBits))
        for step in 0..<Self.probeLimit {
            let slot = (start + step) & (Self.capacity - 1)
            guard claim(field(slot, 0), key.detail, isText: false),
                claim(field(slot, 1), key.identity, isText: key.isText)
            else { continue }
            if let type { _ = claim(field(slot, 2), UInt(bitPattern: ObjectIdentifier(type)), isText: false) }
            return slot
        }
        return nil
    }

    /// Writes `value` into `word` if it is still 0; returns whether the word now holds `value`
    /// (or, for a text, the same characters).
    private func claim(_ word: UnsafeMutablePointer<petal_atomic_word>, _ value: UInt, isText: Bool) -> Bool {
        // ACQUIRE (see petal_atomics.h): a slot's fields are written in order, each by a FULL
        // exchange, so the fields before this one are visible, and so is a text's address.
        var seen = petal_atomic_word_load(word)
        // FULL: publishes the field to every thread that loads it; when another thread wrote
        // first, `seen` is what it wrote, with the same guarantees as the load.
        if seen == 0 && petal_atomic_word_exchange(word, &seen, petal_word(value)) != 0 { return true }
        guard UInt(seen) != value, isText else { return UInt(seen) == value }
        let texts = (UnsafePointer<CChar>(bitPattern: UInt(seen)), UnsafePointer<CChar>(bitPattern: value))
        return strcmp(texts.0.unsafelyUnwrapped, texts.1.unsafelyUnwrapped) == 0
    }

    /// The key of a claimed slot, and the type that named it, if any.
    func key(at slot: Int) -> (key: Key, type: Any.Type?) {
        // ACQUIRE each, as in `claim`; the caller saw the slot claimed (it found it, read a
        // count, or read a failure's site number, written after the claim and before the
        // future's publication).
        let word = { UInt(petal_atomic_word_load(self.field(slot, $0))) }
        return (Key(identity: word(1), detail: word(0)), word(2) == 0 ? nil : Key.metatype(at: word(2)))
    }

    /// Every site of `kind` with a count, overflow included (a snapshot: others may be counting).
    func counts(of kind: PetalDiagnostic.Kind) -> [PetalDiagnostic.SiteCount] {
        (0..<Self.capacity + 9).compactMap { slot in
            // ACQUIRE: a count seen makes visible the fields its counter claimed or matched.
            let count = Int(petal_atomic_word_load(field(slot, 3)))
            let (key, type) = self.key(at: slot)
            guard count > 0, key.kind == kind else { return nil }
            let site = slot < Self.capacity ? key.site(type: type) : PetalDiagnostic.Site(name: "other sites")
            return PetalDiagnostic.SiteCount(site: site, count: count)
        }
    }
}
