import CPetal

/// What a batch says it is: how many of its slots are in each state, and the state of ``all``.
///
/// ```swift
/// let batch = PromiseBatch<Int>(count: 3)
/// batch.fulfil(0, with: 10)
/// print(batch)          // PromiseBatch<Int>(3 slots: 1 fulfilled, 2 pending; all: pending)
/// ```
///
/// A slot is `pending`, `fulfilled`, `failed` (rejected or cancelled: the batch keeps no slot's
/// error, which went to ``all``) or `stopped` (``all`` was given up on first). Each read is a
/// snapshot: one acquire load per slot and one of ``all``'s word, with no lock, and no slot's
/// value read (a slot's value belongs to its producer until ``all`` takes them all). Slots read
/// one after another may each have moved on by the time the last is read, so the counts may
/// be stale as soon as they are made; ``all``'s state is read last.
extension PromiseBatch: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The batch for a log: its type, how many slots are in each state (states with none left
    /// out), and ``all``'s state, with the indirect error of a cancellation but not the values,
    /// which a large batch would make long: `PromiseBatch<Int>(3 slots: 1 fulfilled, 2 pending;
    /// all: pending)`, or `PromiseBatch<Int>(3 slots: 1 failed, 2 stopped; all: cancelled,
    /// indirect error: Boom())`.
    ///
    /// One acquire load per slot and one of ``all``'s word, lock-free; a snapshot that may be
    /// stale at once.
    public var description: String {
        let counts = slotCounts()
        let all = self.all.storage.snapshot()
        let state: String
        if case .fulfilled? = all {
            state = StateText.name(of: all)
        } else {
            state = StateText.text(of: all, debug: false)
        }
        return "\(StateText.typeName(of: PromiseBatch.self, debug: false))(\(counts); all: \(state))"
    }

    /// The batch for a debugger: as ``description``, with the types qualified by their module,
    /// then each slot's state in order (the first 16), ``all`` as its
    /// `debugDescription` shows it (values included), and the batch's creation site.
    ///
    /// One acquire load per slot and one of ``all``'s word, lock-free; a snapshot that may be
    /// stale at once.
    public var debugDescription: String {
        let counts = slotCounts()
        let shown = Swift.min(count, Self.describedSlotLimit)
        var slots = (0..<shown).map { slotState($0) }.joined(separator: ", ")
        if count > shown { slots += ", … \(count - shown) more" }
        let site = "\(site.fileID):\(site.line)"
        return "\(StateText.typeName(of: PromiseBatch.self, debug: true))(\(counts); slots: [\(slots)]; "
            + "all: \(all.debugDescription); created at \(site))"
    }

    /// The batch's structure for `dump` and a debugger: `count`, `slots` (each slot's state, in
    /// order, read as `dump` reaches it; `dump`'s `maxItems` bounds how many), and ``all``, a
    /// future that shows its own state.
    ///
    /// ``all``'s word is read when `dump` reaches it, each slot's word likewise: lock-free
    /// snapshots that may be stale at once.
    public var customMirror: Mirror {
        let children: [Mirror.Child] = [
            (label: "count", value: count), (label: "slots", value: SlotStates(batch: self)),
            (label: "all", value: all),
        ]
        return Mirror(self, children: children, displayStyle: .class)
    }

    /// How many slots ``debugDescription`` lists one by one: enough for a fan-out's replicas,
    /// few enough for a debugger's line. The counts cover every slot.
    private static var describedSlotLimit: Int { 16 }

    /// The states of a batch's slots, as `dump` shows them: a collection read lazily, one
    /// slot's word as each is reached, so that a batch of millions is not read for the few
    /// that `dump` prints.
    private struct SlotStates: CustomReflectable {
        let batch: PromiseBatch

        var customMirror: Mirror {
            Mirror(
                self, unlabeledChildren: (0..<batch.count).lazy.map { [batch] in batch.slotState($0) },
                displayStyle: .collection)
        }
    }

    /// The state of slot `index`, from one acquire load of its word.
    private func slotState(_ index: Int) -> String {
        Self.name(ofSlotWord: storage.state(index))
    }

    /// `1 fulfilled, 2 pending`: each slot's word loaded once, the states with no slot left out.
    private func slotCounts() -> String {
        var tally = [0, 0, 0, 0]
        for index in 0..<count {
            let word = Int(storage.state(index))
            if word < tally.count { tally[word] += 1 }
        }
        let states = [
            (PromiseBatchStorage<Value>.fulfilled, "fulfilled"), (PromiseBatchStorage<Value>.failed, "failed"),
            (PromiseBatchStorage<Value>.stopped, "stopped"), (PromiseBatchStorage<Value>.pending, "pending"),
        ]
        let parts = states.compactMap { word, name in tally[Int(word)] == 0 ? nil : "\(tally[Int(word)]) \(name)" }
        let slots = count == 1 ? "1 slot" : "\(count) slots"
        return parts.isEmpty ? slots : "\(slots): \(parts.joined(separator: ", "))"
    }

    /// The name of a slot's state.
    private static func name(ofSlotWord word: petal_word) -> String {
        switch word {
        case PromiseBatchStorage<Value>.pending: "pending"
        case PromiseBatchStorage<Value>.fulfilled: "fulfilled"
        case PromiseBatchStorage<Value>.failed: "failed"
        case PromiseBatchStorage<Value>.stopped: "stopped"
        default: "unknown"
        }
    }
}
