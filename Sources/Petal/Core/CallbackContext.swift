import CPetal

/// Carries a context, a trace's most often, from where a callback is subscribed to where it
/// runs.
///
/// A callback subscribed in a request's handler may run much later on whatever thread resolves
/// its future: the timer thread, an event loop, another request's thread. Whatever the
/// subscriber had current there (a `ServiceContext` in a task-local, a logging scope) is gone,
/// and a trace breaks at every step. A carrier captures that context when a callback or a
/// chaining closure is handed to Petal, and runs the closure inside it, wherever it runs.
///
/// PetalTracing's carrier carries swift-service-context's `ServiceContext`; conform your own
/// for other thread- or task-local state.
public protocol CallbackContextCarrier: Sendable {
    /// The context current where this is called (a subscribing thread or task), or `nil` when
    /// there is none to carry: the callback is then stored as given, at no cost.
    func capture() -> (any Sendable)?

    /// Runs `body` with `captured`, a value ``capture()`` returned, as the current context.
    func run(with captured: any Sendable, _ body: () -> Void)
}

/// The process-wide ``CallbackContextCarrier``: none by default.
///
/// With a carrier installed, every closure handed to Petal to run later runs inside the
/// context that was current when it was handed over: observers (`whenResolved`,
/// `whenFulfilled`, …), chaining closures (`then`, `recover`, `mapError`, `always`, `ensure`,
/// `additionally`), the work `Future.retrying` starts again, and `whenCancellationRequested`
/// handlers. Combinators and timeouts take no closure of their own: what is chained onto them
/// carries its own context. Without a carrier each of those places costs one load and a branch.
public enum CallbackContext {
    /// The carrier every later subscription uses; `nil` for none. Set it once, at start-up,
    /// before the callbacks it should carry are subscribed (PetalTracing:
    /// `CallbackContext.carryServiceContext()`).
    public static var carrier: (any CallbackContextCarrier)? {
        get { installed.withHandler { $0.carrier } }
        set {
            installed.replace(with: Installed(carrier: newValue))
            setFlag(carrierBit, on: newValue != nil)
        }
    }

    /// The flag's bit saying a carrier is installed.
    @inlinable
    static var carrierBit: Int { 1 }

    /// The flag's bit saying a ``Deadline`` was bound in this process: from then on, every
    /// closure handed to Petal carries the deadline current where it was handed over. Set once,
    /// never cleared (a deadline bound once is likely bound again, and a stale bit costs only a
    /// thread-local read and a task-local one per capture, see ``CarriedDeadline``).
    @inlinable
    static var deadlinesBit: Int { 2 }

    /// Turns deadline carrying on, the first time a deadline is bound: from then on a capture
    /// takes the deadline bound on the thread's slot, or by the running task (see
    /// ``CarriedDeadline``). Idempotent, so a race between first bindings is harmless.
    static func enableDeadlines() {
        guard petal_atomic_word_load(petal_callback_context_flag()) & deadlinesBit == 0 else { return }
        setFlag(deadlinesBit, on: true)
    }

    /// Sets or clears `bit` of the flag word, keeping the other bit: a locked or, or a locked
    /// and, not a compare-and-swap loop (no state here depends on the value before).
    private static func setFlag(_ bit: Int, on: Bool) {
        // FULL (see petal_atomics.h): a thread that sees the flag on sees the carrier too.
        if on {
            petal_atomic_word_or(petal_callback_context_flag(), petal_word(bit))
        } else {
            petal_atomic_word_and(petal_callback_context_flag(), ~petal_word(bit))
        }
    }

    /// In a concrete struct, for the reason `HandlerSlot` gives.
    struct Installed: Sendable {
        var carrier: (any CallbackContextCarrier)?
    }

    private static let installed = HandlerSlot(Installed(carrier: nil))

    /// Whether a carrier is installed: one acquire load of a C global (a plain load on x86 and
    /// ARM64; a Swift global would add a lazy-initialisation check to every subscription).
    @inlinable
    static var isEnabled: Bool { petal_atomic_word_load(petal_callback_context_flag()) != 0 }

    /// The context to carry from here (the carrier's, and the current deadline), or `nil`
    /// when there is nothing to carry.
    ///
    /// The carrier's slot is read only with the flag's carrier bit set: copying its optional
    /// existential out went through `Optional`'s run-time metadata and value witnesses, about
    /// 250 instructions a capture that carried only a deadline.
    @usableFromInline
    static func capture() -> CapturedContext? {
        let deadline = CarriedDeadline.current()
        let carried =
            petal_atomic_word_load(petal_callback_context_flag()) & carrierBit == 0
            ? nil : installed.withHandler { CarriedContext($0.carrier) }
        guard carried != nil || deadline != nil else { return nil }
        return CapturedContext(carried: carried, deadline: deadline)
    }
}

extension CallbackContext {
    /// `work`, or, with a carrier and a context to carry, `work` run inside that context: for
    /// work Petal runs later, perhaps more than once (a retry's attempts, a cancellation handler).
    static func carrying<Result>(
        _ work: @escaping @Sendable () throws -> Result
    ) -> @Sendable () throws -> Result {
        guard isEnabled, let captured = capture() else { return work }
        return {
            var result: Swift.Result<Result, any Error>?
            captured.run { result = Swift.Result { try work() } }
            return try result.unsafelyUnwrapped.get()
        }
    }

    /// `handler`, or, with a carrier and a context to carry, `handler` run inside that context.
    @usableFromInline
    static func carrying(_ handler: consuming @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard isEnabled, let captured = capture() else { return handler }
        let handler = copy handler  // a `let`, for the closure below to capture
        return { captured.run(handler) }
    }
}

/// A context captured at a subscription: the carrier's, and the deadline; either may be
/// absent, not both.
///
/// Four words that copy and destroy with a retain and a release each: the carrier's value and
/// the carrier, existentials, are boxed in ``CarriedContext``, so that a closure carrying only
/// a deadline runs no value witness.
@usableFromInline
struct CapturedContext: Sendable {
    let carried: CarriedContext?
    let deadline: CarriedDeadline?

    @usableFromInline
    func run(_ body: () -> Void) {
        guard deadline != nil else { return runInCarrier(body) }
        // The deadline as captured, not shortened by one bound where this runs: the closure
        // belongs to the request that handed it over, not to whatever thread runs it. Borrowed
        // in place, not bound out of the optional: a copy retained and released the clock.
        deadline.unsafelyUnwrapped.bind { runInCarrier(body) }
    }

    private func runInCarrier(_ body: () -> Void) {
        guard let carried else { return body() }
        carried.carrier.run(with: carried.value, body)
    }
}

/// A carrier's captured value with the carrier that runs closures inside it.
final class CarriedContext: Sendable {
    let carrier: any CallbackContextCarrier
    let value: any Sendable

    /// What `carrier` captures here, or `nil` without a carrier or a context to carry.
    init?(_ carrier: (any CallbackContextCarrier)?) {
        guard let carrier, let value = carrier.capture() else { return nil }
        self.carrier = carrier
        self.value = value
    }
}

/// A request's deadline as the ground floor carries it: the words of a thread's deadline slot
/// (`petal_swift_flags.h`), its clock retained while a closure holds it.
///
/// Why the ground floor handles the slot itself, where other contexts go through a carrier:
/// every closure handed to Petal under a deadline captures it and binds it where it runs, and
/// a carrier's existentials (dispatch, value witnesses, `Optional` metadata) cost more than the
/// binding. Core knows only the slot's layout: `Deadline` says what the words mean.
struct CarriedDeadline: @unchecked Sendable {
    // @unchecked: `clock` is a `DeadlineClock`, which is Sendable; Core holds it as an object
    // because it names nothing of the floors above it.
    let instantLow: UInt64
    let instantHigh: UInt64
    let clock: AnyObject

    init(instantLow: UInt64, instantHigh: UInt64, clock: AnyObject) {
        self.instantLow = instantLow
        self.instantHigh = instantHigh
        self.clock = clock
    }

    /// What `slot` holds, the clock retained; `nil` for an empty slot.
    private init?(_ slot: petal_deadline_slot) {
        guard let clock = slot.clock else { return nil }
        self.init(
            instantLow: slot.instant_low, instantHigh: slot.instant_high,
            clock: Unmanaged<AnyObject>.fromOpaque(clock).takeUnretainedValue())
    }

    /// The deadline to carry from here: the one a synchronous binding holds on this thread's
    /// slot, else the running task's, else `nil` (and `nil` until a deadline is first bound in
    /// the process: one load).
    ///
    /// The thread's slot first: a synchronous binding is the innermost open here (it cannot
    /// suspend, so it opened inside any binding of the running task and closes before it), and
    /// it already holds the earlier of itself and what it found.
    static func current() -> CarriedDeadline? {
        guard petal_atomic_word_load(petal_callback_context_flag()) & CallbackContext.deadlinesBit != 0 else {
            return nil
        }
        if let bound = onThisThread() { return bound }
        var slot = petal_deadline_slot()
        guard petal_swift_deadline_task_bound(&slot) != 0 else { return nil }
        return CarriedDeadline(slot)
    }

    /// The deadline a synchronous binding holds on this thread's slot, or `nil`.
    static func onThisThread() -> CarriedDeadline? {
        CarriedDeadline(petal_deadline_slot_current().unsafelyUnwrapped.pointee)
    }

    /// Runs `body` with this deadline in this thread's slot, and puts back what was there when
    /// `body` returns or throws: plain stores to a thread-local, where a task-local binding
    /// allocates an item (and, outside a task, reaches a thread-local fallback).
    func bind<Result>(_ body: () throws -> Result) rethrows -> Result {
        let slot = petal_deadline_slot_current().unsafelyUnwrapped
        let saved = slot.pointee
        slot.pointee = petal_deadline_slot(
            instant_low: instantLow, instant_high: instantHigh, clock: Unmanaged.passUnretained(clock).toOpaque())
        // The address stays this thread's: `body` is synchronous, so it returns here.
        defer { slot.pointee = saved }
        // The slot does not retain the clock: `self` does, until `body` is done with it.
        return try withExtendedLifetime(self) { try body() }
    }
}

extension FutureStorage {
    /// Subscribes an observer's `callback`, to run on `context`: as it is, or, with a callback
    /// context to carry, inside that context. The check is inline and one load; the carrying
    /// is not, so that an observer method stays small enough to inline into its caller
    /// (callgrind: a carrying branch written inline cost every subscription 70 instructions).
    @inlinable
    final func subscribeObserver<Context: ExecutionContext>(_ callback: consuming Callback<Value>, on context: Context)
    {
        if CallbackContext.isEnabled { return subscribeCarryingContext(callback, on: context) }
        subscribe(.make(callback, on: context))
    }

    /// The slow path of ``subscribeObserver(_:on:)``: not inlined, but inlinable so that the
    /// caller's module specialises it. Unspecialised, the carried callback was invoked through
    /// run-time metadata look-ups of `Outcome<Value>` and the closures' contexts (callgrind:
    /// this and reading the carrier borrowed took a subscription with a deadline bound from 8,414
    /// to 3,859 instructions); one specialised copy per value type and context is the price.
    @inlinable
    @inline(never)
    final func subscribeCarryingContext<Context: ExecutionContext>(_ callback: Callback<Value>, on context: Context) {
        guard let captured = CallbackContext.capture() else { return subscribe(.make(callback, on: context)) }
        // Wrapped before it is handed to `context`, so that it runs inside the context on the
        // context's thread. Unchecked: the outcome moves to where the callback runs, exactly as
        // it does for any callback handed to a context (see `Callback.dispatching`).
        let box = UncheckedSendableBox(callback)
        subscribe(.make(.resolved { outcome in captured.run { box.value.invoke(with: outcome) } }, on: context))
    }
}
