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
    /// task-local read per capture).
    @inlinable
    static var deadlinesBit: Int { 2 }

    /// Turns deadline carrying on, the first time a deadline is bound: `carrier` captures the
    /// deadline and binds it where a closure runs. A carrier handed down rather than named,
    /// because deadlines live on a floor above this one (see the Design article's floors);
    /// every caller passes the same carrier, so a race between first bindings is harmless.
    static func enableDeadlines(carriedBy carrier: any CallbackContextCarrier) {
        guard petal_atomic_word_load(petal_callback_context_flag()) & deadlinesBit == 0 else { return }
        deadlineCarrier.replace(with: Installed(carrier: carrier))
        setFlag(deadlinesBit, on: true)
    }

    /// Sets or clears `bit` of the flag word, keeping the other bit.
    private static func setFlag(_ bit: Int, on: Bool) {
        var seen = petal_atomic_word_load(petal_callback_context_flag())
        // FULL (see petal_atomics.h): a thread that sees the flag on sees the carrier too.
        while petal_atomic_word_exchange(petal_callback_context_flag(), &seen, on ? seen | bit : seen & ~bit) == 0 {}
    }

    /// In a concrete struct, for the reason `HandlerSlot` gives.
    struct Installed: Sendable {
        var carrier: (any CallbackContextCarrier)?
    }

    private static let installed = HandlerSlot(Installed(carrier: nil))

    /// The carrier of the request's deadline, installed by ``enableDeadlines(carriedBy:)``.
    private static let deadlineCarrier = HandlerSlot(Installed(carrier: nil))

    /// Whether a carrier is installed: one acquire load of a C global (a plain load on x86 and
    /// ARM64; a Swift global would add a lazy-initialisation check to every subscription).
    @inlinable
    static var isEnabled: Bool { petal_atomic_word_load(petal_callback_context_flag()) != 0 }

    /// The context to carry from here (the carrier's, and the current ``Deadline``), or `nil`
    /// when there is nothing to carry.
    @usableFromInline
    static func capture() -> CapturedContext? {
        let deadlines = deadlineCarrier.withHandler { $0.carrier }
        let deadline = deadlines?.capture()
        let carrier = installed.withHandler { $0.carrier }
        let value = carrier?.capture()
        guard value != nil || deadline != nil else { return nil }
        return CapturedContext(
            carrier: value == nil ? nil : carrier, value: value, deadlineCarrier: deadline == nil ? nil : deadlines,
            deadline: deadline)
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
    static func carrying(_ handler: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard isEnabled, let captured = capture() else { return handler }
        return { captured.run(handler) }
    }
}

/// A context captured at a subscription: the carrier's value with the carrier that runs
/// closures inside it, and the deadline with its own carrier; either may be absent, not both.
@usableFromInline
struct CapturedContext: Sendable {
    let carrier: (any CallbackContextCarrier)?
    let value: (any Sendable)?
    let deadlineCarrier: (any CallbackContextCarrier)?
    /// Held inline in the existential's buffer: a deadline is three words (see `Deadline`), so
    /// carrying one allocates nothing beyond the closure it is carried into.
    let deadline: (any Sendable)?

    @usableFromInline
    func run(_ body: () -> Void) {
        guard let deadlineCarrier, let deadline else { return runInCarrier(body) }
        deadlineCarrier.run(with: deadline) { runInCarrier(body) }
    }

    private func runInCarrier(_ body: () -> Void) {
        guard let carrier, let value else { return body() }
        carrier.run(with: value, body)
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

    /// The slow path of ``subscribeObserver(_:on:)``: not inlined, and so not specialised.
    @usableFromInline
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
