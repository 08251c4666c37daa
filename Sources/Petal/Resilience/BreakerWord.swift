import CPetal

/// The word of a ``CircuitBreaker``: its state, which change of state it is at, and what that
/// state needs, moved only by compare-and-swap, each move a pure function of the word seen
/// (nil: not this move).
///
/// ```
///   bits  0-1   state      closed 0, open 1, half-open 2
///   bits  2-31  epoch      one more at every change of state (wrapping)
///   bits 32-63  open:      the tick it lets trial calls through at (milliseconds since the
///                          breaker was made, wrapping at 2^32)
///               half-open: bits 32-47 trial calls admitted, bits 48-63 trial calls succeeded
///               closed:    0
/// ```
///
/// Who moves it where (`Tests/Model/petal_breaker.pml`):
/// - closed -> open (``tripping(_:epoch:retryTick:)``): a failed or slow call of the closed
///   epoch it was admitted in found the window's rates past their thresholds.
/// - open -> half-open (``admitting(_:nowTick:openTicks:trialCalls:)``): the first call after the retry
///   tick; it is the first trial.
/// - half-open, one more trial (``admitting(_:nowTick:openTicks:trialCalls:)``): while fewer than the
///   trial calls were admitted.
/// - half-open -> closed, -> open, or a trial's permit given back
///   (``settling(_:epoch:_:trialCalls:retryTick:)``): a trial of this epoch succeeded (the last
///   one closes), failed, or neither (it was cancelled, or refused elsewhere).
/// A call remembers the epoch it was admitted in, and its outcome moves the word only while the
/// epoch is the same: a late outcome of an earlier state decides nothing. The closed path reads
/// the word and never writes it.
enum BreakerWord {
    static let closed: petal_word = 0
    static let open: petal_word = 1
    static let halfOpen: petal_word = 2
    static let stateMask: petal_word = 3
    static let epochShift: petal_word = 2
    static let epochMask: petal_word = (1 << 30) - 1
    static let payloadShift: petal_word = 32
    static let fieldMask: petal_word = (1 << 16) - 1

    static func state(_ word: petal_word) -> petal_word { word & stateMask }
    static func epoch(_ word: petal_word) -> UInt32 { UInt32((word >> epochShift) & epochMask) }
    static func retryTick(_ word: petal_word) -> UInt32 { UInt32(truncatingIfNeeded: word >> payloadShift) }
    static func admitted(_ word: petal_word) -> Int { Int((word >> payloadShift) & fieldMask) }
    static func succeeded(_ word: petal_word) -> Int { Int((word >> (payloadShift + 16)) & fieldMask) }

    /// The word of `state` in the epoch after `word`'s, with `payload`.
    static func next(after word: petal_word, _ state: petal_word, payload: petal_word = 0) -> petal_word {
        let epoch = (petal_word(epoch(word)) &+ 1) & epochMask
        return state | epoch << epochShift | payload << payloadShift
    }

    /// Whether `now` is at or past `tick`, both wrapping. A tick is never set more than
    /// `openTicks` (the open duration, rounded up) ahead, so one that looks further ahead has
    /// wrapped: it passed more than 24 days ago, while no call came (the open duration is at
    /// most 24 days, see CircuitBreakerPolicy). Only an idle spell of a multiple of 2^32 ms
    /// (49.7 days) to within the open duration holds the breaker open one more open duration.
    static func isDue(_ tick: UInt32, now: UInt32, openTicks: UInt32) -> Bool {
        let ahead = tick &- now
        return Int32(bitPattern: ahead) <= 0 || ahead > openTicks
    }

    /// Opened: the word is still closed in `epoch`.
    static func tripping(_ word: petal_word, epoch: UInt32, retryTick: UInt32) -> petal_word? {
        state(word) == closed && self.epoch(word) == epoch
            ? next(after: word, open, payload: petal_word(retryTick)) : nil
    }

    /// A trial admitted: the first (open, and the retry tick has passed: half-open), or one more
    /// (half-open, and fewer than `trialCalls` admitted).
    static func admitting(_ word: petal_word, nowTick: UInt32, openTicks: UInt32, trialCalls: Int) -> petal_word? {
        switch state(word) {
        case open where isDue(retryTick(word), now: nowTick, openTicks: openTicks):
            next(after: word, halfOpen, payload: 1)
        case halfOpen where admitted(word) < trialCalls: word + (1 << payloadShift)
        default: nil
        }
    }

    /// A trial of `epoch` settled, while the word is still half-open in it.
    static func settling(
        _ word: petal_word, epoch: UInt32, _ outcome: BreakerOutcome, trialCalls: Int, retryTick: UInt32
    ) -> petal_word? {
        guard state(word) == halfOpen && self.epoch(word) == epoch else { return nil }
        switch outcome {
        case .success where succeeded(word) + 1 >= trialCalls: return next(after: word, closed)
        case .success: return word + (1 << (payloadShift + 16))
        case .failure: return next(after: word, open, payload: petal_word(retryTick))
        // Its permit goes back, for another trial: otherwise trials that never decide would
        // leave the breaker half-open with every permit taken, for ever.
        case .ignored: return word - (1 << payloadShift)
        }
    }
}

/// What a call's outcome tells a ``CircuitBreaker`` about its backend.
enum BreakerOutcome {
    /// Fulfilled, or rejected with an error the breaker does not count as a failure.
    case success
    /// Rejected with an error it counts (``CircuitBreaker/isFailure``).
    case failure
    /// Cancelled, or refused before it reached the backend (a limit, the request's deadline,
    /// another breaker): nothing about the backend.
    case ignored
}
