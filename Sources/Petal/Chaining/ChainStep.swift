import CPetal

/// The work of one chaining method (`then`, `recover`, `always`, ...): what to do with the
/// upstream's outcome, and on which context to do it.
///
/// Each chaining family is one small conforming struct holding the user's closure as given.
@usableFromInline
protocol ChainStep: SendableMetatype {
    associatedtype Input
    associatedtype Output
    associatedtype Context: ExecutionContext

    /// Where ``run(upstream:kind:downstream:)`` runs.
    var context: Context { get }

    /// Resolves `downstream` (now, or later through a future the step's closure returned) from
    /// the outcome `upstream` published with `kind`. Runs once, on ``context``.
    func run(upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>)

    /// Whether the step's closure returns a future that the chained future follows: then a
    /// request that reaches the chained future after the closure ran passes on to that future
    /// (`FutureStorage.passRequests(to:)`), and the chained future is made able to pass requests
    /// from its creation, so that its dependents link to it before the closure has run.
    static var mayPassRequests: Bool { get }
}

/// A chained future: a ``FutureStorage`` whose tail holds, after the value, the step that will
/// resolve it.
///
/// The step is written once at creation, moved out once by the delivering thread (so the
/// user's closure and its captures are released as soon as it has run), and otherwise destroyed
/// by the deinit; a `ManagedBuffer` subclass cannot have stored properties, hence the tail.
/// The upstream holds the chained future (in its slot or a node) until it delivers, and nothing
/// holds the upstream, so delivered links of a chain are freed at once and a chain nobody holds
/// lives exactly as long as its producer.
@usableFromInline
final class ChainStepStorage<Step: ChainStep>: FutureStorage<Step.Output> {
    /// A pending chained future that will run `step`.
    @inlinable
    static func make(_ step: consuming Step) -> ChainStepStorage<Step> {
        checkLayout()
        let storage = unsafeDowncast(
            create(minimumCapacity: tailCapacity) { _ in
                FutureHeader(resolvedAs: nil, chained: true, mayPassRequests: Step.mayPassRequests)
            },
            to: ChainStepStorage<Step>.self
        )
        storage.step.initialize(to: consume step)
        return storage
    }

    /// The step's offset from the header's address: after the outcome, in the tail.
    @inlinable
    static var stepOffset: Int {
        offsetAfterOutcome(of: Step.self)
    }

    /// Tail elements (of the value's stride) that hold the outcome and the step.
    @inlinable
    static var tailCapacity: Int {
        tailCapacity(withRoomFor: Step.self)
    }

    /// The step's place in the tail.
    @inlinable
    var step: UnsafeMutablePointer<Step> {
        (headerAddress + Self.stepOffset).assumingMemoryBound(to: Step.self)
    }

    deinit {
        // The step of a link that never received an outcome (its upstream was freed while
        // pending, which only an upstream nobody can resolve allows). The flag spares the
        // common case this generic code's metadata look-ups. Runs before the superclass
        // deinit, while the tail is intact.
        if holdsStep.pointee { step.deinitialize(count: 1) }
    }

    /// Runs the step with the upstream's outcome: called exactly once, on the thread that
    /// delivers it, after an acquire load saw `upstream` resolved with `kind`.
    @inlinable
    func receive(from upstream: FutureStorage<Step.Input>, kind: OutcomeKind) {
        // Moved out first: the delivery happens once, and the closure's captures must not
        // outlive it.
        let work = step.move()
        holdsStep.pointee = false
        // Cancelled on request before its upstream delivered: the step's work is not wanted, and
        // no closure runs downstream of a cancellation. One acquire load of this future's word.
        if petal_word_is_claimed(petal_cell_load(cell)) != 0 { return }
        if Step.Context.self == InlineExecutionContext.self {
            work.run(upstream: upstream, kind: kind, downstream: self)
        } else {
            hop(work, upstream: upstream, kind: kind)
        }
    }

    /// Hands the step to its context, in a ``StepHop`` that cancels this future if the context
    /// drops the work unrun. Inlinable (never inlined) so that it is specialised with its caller.
    @inlinable
    @inline(never)
    func hop(_ work: Step, upstream: FutureStorage<Step.Input>, kind: OutcomeKind) {
        let ticket = StepHop(work, upstream: upstream, kind: kind, downstream: self)
        // Captures only the ticket, which then serves as the closure's context: no box.
        work.context.execute { ticket.run() }
    }
}

/// A step on its way to its context: the one allocation of a hop.
///
/// If the context releases it without running it (an event loop shut down), its deinit cancels
/// the chained future with a ``DroppedWorkError``, so that it and the chain below it resolve
/// instead of hanging.
///
/// `@unchecked Sendable`: everything captured is confined to that one run: the upstream is
/// resolved (immutable), only the step resolves the chained future, and `work` is touched by
/// the run (at most once) and then by the deinit, which the reference count orders after it.
@usableFromInline
final class StepHop<Step: ChainStep>: @unchecked Sendable {
    @usableFromInline
    var work: Step?
    @usableFromInline
    let upstream: FutureStorage<Step.Input>
    @usableFromInline
    let kind: OutcomeKind
    @usableFromInline
    let downstream: ChainStepStorage<Step>

    @inlinable
    init(_ work: Step, upstream: FutureStorage<Step.Input>, kind: OutcomeKind, downstream: ChainStepStorage<Step>) {
        self.work = work
        self.upstream = upstream
        self.kind = kind
        self.downstream = downstream
    }

    @inlinable
    func run() {
        guard let work = work.take() else { return }
        // Cancelled on request while the work waited for its context: skip it.
        if petal_word_is_claimed(petal_cell_load(downstream.cell)) != 0 { return }
        work.run(upstream: upstream, kind: kind, downstream: downstream)
    }

    deinit {
        guard let work else { return }
        _ = downstream.fail(.cancelled, error: work.context.droppedWorkError)
    }
}

extension FutureStorage {
    /// Chains `step` onto this future and returns the chained future.
    @inlinable
    func chain<Step: ChainStep>(_ step: consuming Step) -> Future<Step.Output> where Step.Input == Value {
        // A callback context to carry (a trace's) takes the step the slow way; otherwise this
        // is one load.
        if CallbackContext.isEnabled, let carried = chainCarryingContext(step) { return carried }
        return chainAsIs(consume step)
    }

    /// Chains `step` to run inside the context current here, if there is one to carry: not
    /// inlined, and so not specialised, as it is off by default.
    @usableFromInline
    @inline(never)
    func chainCarryingContext<Step: ChainStep>(_ step: Step) -> Future<Step.Output>? where Step.Input == Value {
        guard let captured = CallbackContext.capture() else { return nil }
        return chainAsIs(ContextCarryingStep(base: step, captured: captured))
    }

    /// Chains `step` onto this future as it is.
    @inlinable
    func chainAsIs<Step: ChainStep>(_ step: consuming Step) -> Future<Step.Output> where Step.Input == Value {
        let downstream = ChainStepStorage.make(consume step)
        // A future whose producer can be asked to cancel links its chained futures, so that
        // their requests travel up; everyone else pays this one load.
        if petal_atomic_word_load(cancellationSlot) != 0 { linkIfPropagating(downstream) }
        // Captures nothing but the chained future: the closure needs no allocation of its own.
        subscribe(.step { upstream, kind in downstream.receive(from: upstream, kind: kind) })
        return Future(storage: downstream)
    }
}

/// A step that runs inside the callback context captured when it was chained (see
/// ``CallbackContext``).
@usableFromInline
struct ContextCarryingStep<Base: ChainStep>: ChainStep {
    @usableFromInline
    typealias Input = Base.Input
    @usableFromInline
    typealias Output = Base.Output

    let base: Base
    let captured: CapturedContext

    @usableFromInline
    var context: Base.Context { base.context }

    @usableFromInline
    static var mayPassRequests: Bool { Base.mayPassRequests }

    @usableFromInline
    func run(upstream: FutureStorage<Input>, kind: OutcomeKind, downstream: FutureStorage<Output>) {
        captured.run { base.run(upstream: upstream, kind: kind, downstream: downstream) }
    }
}
