import Petal
import Synchronization
import Testing

/// Counts the objects a handler captured that have been released.
private final class Token: Sendable {
    let released: Counter
    init(_ released: Counter) { self.released = released }
    deinit { released.increment() }
}

/// Registers `count` handlers on `promise`, each counting its runs in `ran` and holding a token
/// whose release `released` counts.
private func registerHandlers(_ count: Int, on promise: Promise<Int>, ran: Counter, released: Counter) {
    for _ in 0..<count {
        let token = Token(released)
        promise.whenCancellationRequested {
            _ = token
            ran.increment()
        }
    }
}

@Suite("Cancellation: the record a future keeps")
struct CancellationRecordTests {
    @Test("a future nobody asks has no record; the first request, handler or job installs one")
    func recordIsLazy() {
        let plain = Promise<Int>()
        let chained = plain.future.then { $0 + 1 }
        #expect(!plain.future.hasCancellationRecordForTests)
        #expect(!chained.hasCancellationRecordForTests)
        plain.future.requestCancellation()
        #expect(plain.future.hasCancellationRecordForTests)
        let handled = Promise<Int>()
        handled.whenCancellationRequested {}
        #expect(handled.future.hasCancellationRecordForTests)
        let job = ManualJob<Int, Int>()
        #expect(job.future.hasCancellationRecordForTests)
        #expect(job.state == .pending)
        plain.fulfil(with: 1)
    }

    @Test("a request runs the handlers oldest first, each once")
    func handlersRunOldestFirst() {
        let promise = Promise<Int>()
        let order = Recorder<Int>()
        for index in 0..<5 { promise.whenCancellationRequested { order.record(index) } }
        promise.future.requestCancellation()
        promise.future.requestCancellation()
        #expect(order.events == [0, 1, 2, 3, 4])
        promise.fulfil(with: 1)
    }

    @Test("resolution releases the handlers unrun at once, while the future is still held")
    func resolutionReleasesHandlers() {
        let released = Counter()
        let ran = Counter()
        let promise = Promise<Int>()
        for _ in 0..<3 {
            let token = Token(released)
            promise.whenCancellationRequested {
                _ = token
                ran.increment()
            }
        }
        #expect(released.value == 0)
        promise.fulfil(with: 1)
        #expect(released.value == 3)
        promise.future.requestCancellation()
        #expect(ran.value == 0)
    }

    @Test("the vote actions a chain below a job holds are released with the chain")
    func chainVotesReleased() {
        let released = Counter()
        do {
            // A chain below a job links each step to the job's future with a vote action held by
            // the step's record; nothing resolves, and everything is dropped.
            let job = ManualJob<Int, Int>()
            let token = Token(released)
            job.future.then { _ in _ = token }.whenFulfilled { _ in }
            _ = job.future.then { $0 }.then { $0 }
            job.cancel()
        }
        #expect(released.value == 1)
    }

    @Test(
        "handlers registered from many threads while another thread requests: each runs exactly once, whichever side won"
    )
    func registrationsRaceRequest() {
        let rounds = scaled(2_000, floor: 100)
        let perThread = 8
        for _ in 0..<rounds {
            let promise = Promise<Int>()
            let ran = Counter()
            let released = Counter()
            onThreads(3) { thread in
                if thread == 0 {
                    promise.future.requestCancellation()
                } else {
                    registerHandlers(perThread, on: promise, ran: ran, released: released)
                }
            }
            #expect(ran.value == 2 * perThread)
            promise.fulfil(with: 0)
            #expect(released.value == 2 * perThread)
        }
    }

    @Test("handlers registered from many threads while another resolves: none runs, every one is released")
    func registrationsRaceResolution() {
        let rounds = scaled(2_000, floor: 100)
        let perThread = 8
        for _ in 0..<rounds {
            let promise = Promise<Int>()
            let ran = Counter()
            let released = Counter()
            onThreads(3) { thread in
                if thread == 0 {
                    promise.fulfil(with: 1)
                } else {
                    registerHandlers(perThread, on: promise, ran: ran, released: released)
                }
            }
            // Released before the promise goes: a resolved future holds no actions.
            #expect(released.value == 2 * perThread)
            promise.future.requestCancellation()
            #expect(ran.value == 0)
        }
    }

    @Test("votes from many dependents racing: the shared upstream is asked exactly once, after the last vote")
    func votesRace() {
        let rounds = scaled(1_000, floor: 50)
        for _ in 0..<rounds {
            let promise = Promise<Int>()
            let asked = Counter()
            promise.whenCancellationRequested { asked.increment() }
            let dependents = (0..<4).map { _ in promise.future.then { $0 } }
            #expect(promise.future.dependentCountForTests == 4)
            onThreads(4) { index in
                dependents[index].requestCancellation()
            }
            #expect(asked.value == 1)
            #expect(promise.future.isCancellationRequested)
            promise.fulfil(with: 0)
        }
    }
}
