import Petal

/// A job the test finishes by hand: it records its inputs and what its hook saw.
final class ManualJob<Input: Sendable, Output>: Job<Input, Output>, @unchecked Sendable {
    // @unchecked: the recorders are thread-safe.
    let inputs = Recorder<Input>()
    let hookSaw = Recorder<JobState>()

    override func start(with input: Input) {
        guard begin() else { return }
        inputs.record(input)
    }

    override func wasCancelled(withIndirectError indirectError: (any Error)?) {
        // Reading the job's own state from the hook must not deadlock.
        hookSaw.record(state)
    }
}

/// A job that completes with a function of its input as soon as it starts.
final class MapJob<Input: Sendable, Output>: Job<Input, Output>, @unchecked Sendable {
    // @unchecked: `body` is immutable and Sendable.
    let body: @Sendable (Input) throws -> Output

    init(_ body: @escaping @Sendable (Input) throws -> Output) {
        self.body = body
        super.init()
    }

    override func start(with input: Input) {
        guard begin() else { return }
        do {
            complete(with: try body(input))
        } catch {
            fail(with: error)
        }
    }
}

/// A cancellable that counts how often it was asked, and can run something when asked.
final class CountingCancellable: Cancellable {
    let asked = Counter()
    let onCancel: (@Sendable (CountingCancellable) -> Void)?

    init(onCancel: (@Sendable (CountingCancellable) -> Void)? = nil) {
        self.onCancel = onCancel
    }

    func attemptCancel() {
        asked.increment()
        onCancel?(self)
    }
}

/// Collects the repeated-start reports of jobs of `jobType` made while `body` runs.
///
/// The handler is process-wide and installed once (see `repeatedJobStarts`): swapping it per
/// test would lose reports to, or steal them from, tests running at the same time. Only
/// JobStateTests, a serialised suite, collects `ManualJob<Int, Int>`; other tests that collect
/// reports pass a job type of their own.
func collectingJobStartReports(
    of jobType: Any.Type = ManualJob<Int, Int>.self, _ body: () -> Void
) -> [PetalDiagnostic] {
    let before = repeatedJobStarts.events.count
    body()
    return repeatedJobStarts.events.dropFirst(before).filter { $0.site.name == "\(jobType)" }
}
