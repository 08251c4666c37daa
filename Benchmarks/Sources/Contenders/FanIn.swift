import CBenchSupport
import LibraryPromises
import Synchronization

/// The generic designs of `LibraryPromises`, for code written over any of them: the fan-in their
/// users write in place of the combinator these libraries lack.
public protocol GenericPromise<Value>: AnyObject, Sendable {
    associatedtype Value: Sendable
    init()
    /// Calls `callback` with the value once fulfilled.
    func subscribe(_ callback: @escaping @Sendable (Value) -> Void)
    /// Fulfils with `value`; returns whether this call won.
    @discardableResult
    func fulfil(_ value: Value) -> Bool
}

extension GenericMutexPromise: GenericPromise {}

extension GenericBarePromise: GenericPromise {}

/// What a hand-written fan-in shares among its inputs' callbacks: one slot per input, and how
/// many inputs are still to come.
///
/// Slots in a buffer of their own rather than a `[Value?]` property: callbacks on different
/// threads write different elements, which an array in a class cannot take (each write is an
/// exclusive access to the whole array), so a careful user reaches for a buffer, as here.
@usableFromInline
final class FanInState<Value: Sendable>: @unchecked Sendable {
    // @unchecked: each input's callback writes only its own slot, then decrements `remaining`
    // with acquiring and releasing ordering; the callback that brings it to zero has acquired
    // every other write, and alone reads the slots. `deinit` runs after all of them.
    @usableFromInline let remaining: Atomic<Int>
    @usableFromInline let slots: UnsafeMutableBufferPointer<Value?>

    @inlinable
    init(count: Int) {
        remaining = Atomic(count)
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    /// Stores input `index`'s value; returns whether it was the last input to arrive.
    @inlinable
    func store(_ value: Value, at index: Int) -> Bool {
        slots[index] = value
        return remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
    }

    /// Moves the values out, in input order: only the last input to arrive may.
    @inlinable
    func takeValues() -> [Value] {
        [Value](unsafeUninitializedCapacity: slots.count) { values, count in
            for index in slots.indices {
                // Every slot holds a value: the last input arrived.
                let value = slots.moveElement(from: index).unsafelyUnwrapped
                (values.baseAddress.unsafelyUnwrapped + index).initialize(to: value)
            }
            count = slots.count
        }
    }

    deinit {
        // Slots moved out are uninitialised; those of a fan-in never completed hold values.
        if remaining.load(ordering: .acquiring) != 0 { slots.deinitialize() }
        slots.deallocate()
    }
}

extension GenericPromise {
    /// A promise fulfilled with the values of all `inputs`, in input order, once every one is
    /// fulfilled: the fan-in a user of a library without combinators writes. Each input gets a
    /// callback that stores its value in a shared buffer and counts down a shared atomic; the
    /// callback that brings it to zero fulfils the output with the values.
    @inlinable
    public static func fulfillingWhen<Input: GenericPromise>(_ inputs: [Input]) -> Self
    where Value == [Input.Value] {
        let output = Self()
        if inputs.isEmpty {
            output.fulfil([])
            return output
        }
        let state = FanInState<Input.Value>(count: inputs.count)
        for (index, input) in inputs.enumerated() {
            input.subscribe { value in
                if state.store(value, at: index) { output.fulfil(state.takeValues()) }
            }
        }
        return output
    }
}

extension GenericPromise where Value == Int {
    /// `Contender.runFulfillingWhen` for this design: `width` inputs of it fanned in by hand into
    /// an `Output`, a promise of the same design holding the array.
    @inlinable
    static func runFulfillingWhen<Output: GenericPromise>(width: Int, value: Int, into _: Output.Type)
    where Output.Value == [Int] {
        let inputs = (0..<width).map { _ in Self() }
        let last = value + width - 1
        Output.fulfillingWhen(inputs).subscribe { values in
            if values.count == width && values.first == value && values.last == last { bench_count_add() }
        }
        for (index, input) in inputs.enumerated() { input.fulfil(value + index) }
    }
}
