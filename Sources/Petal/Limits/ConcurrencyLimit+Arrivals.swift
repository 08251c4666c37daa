import CPetal

// The front door's count: requests a server's I/O layer has let through towards the limit that
// have not been answered yet. Why: a shedder reads many requests in one pass of its event loop
// before any of them reaches `run` (a task runs each later, on another thread), so the limit's
// own word still shows room while a pass lets through far more than it will admit; each of those
// is then refused through the whole server, which costs the CPU the shedder exists to save
// (Examples/ResilientServer under a flood: 5,000 such refusals a second). Counting what the
// door let through closes that gap. For PetalNIO's `LoadShedder`; not public API, as how a
// server counts its requests is the door's business.
extension ConcurrencyLimit {
    /// Whether a request arriving now may go through the front door: the limit is not full and
    /// the requests let through and not answered do not fill its slots and queue. If so, it is
    /// counted (``arrivalAnswered(_:)`` uncounts it).
    ///
    /// A hint, as ``isFull`` is: a load then an add, so two doors on two threads may both pass
    /// the last place (`run` still decides). Not a compare-and-swap loop: an exact bound here
    /// would buy nothing that `run` does not already enforce.
    package func admitsArrival() -> Bool {
        let maximum = maximum
        // Acquire loads (petal_atomic_word_load), though nothing is read through them: a hint.
        let arrivals = Int(bitPattern: UInt(petal_atomic_word_load(arrivalsWord)))
        guard !isFull, arrivals < maximum + queueBound(maximum: maximum) else { return false }
        atomicAdd(1, to: arrivalsWord)
        return true
    }

    /// Counts a request let through whatever the limit holds (one behind another on a
    /// pipelining connection, which a refusal may not overtake).
    package func countArrival() { atomicAdd(1, to: arrivalsWord) }

    /// Uncounts `count` requests let through: answered, or their connection gone.
    package func arrivalAnswered(_ count: Int = 1) {
        // One locked add of the negative count: the word is a counter, moved only by adds, never
        // compared.
        _ = petal_atomic_word_add(arrivalsWord, petal_word(-count))
    }

    /// The requests let through and not answered, for tests.
    package var arrivalsForTests: Int { Int(bitPattern: UInt(petal_atomic_word_load(arrivalsWord))) }
}
