import Petal
import Testing

/// Starts are work begun for a request: refused once its deadline has passed. Chain steps
/// finish work already begun, and are not.
@Suite("Deadlines: starts")
struct DeadlineStartTests {
    @Test("start(executing:) after the deadline is refused before its closure runs")
    func startRefused() {
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let runs = Counter()
        let started = Deadline.withValue(deadline) {
            Future<Int>.start {
                runs.increment()
                return 1
            }
        }
        #expect(runs.value == 0)
        #expect(isExceeded(started, by: deadline))
    }

    @Test("startFollowing after the deadline is refused before its closure runs")
    func startFollowingRefused() {
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let runs = Counter()
        let started = Deadline.withValue(deadline) {
            Future<Int>.startFollowing(executing: counted(runs, returning: 1))
        }
        #expect(runs.value == 0)
        #expect(isExceeded(started, by: deadline))
    }

    @Test("a job started after the deadline fails with exceededError and its start is never called")
    func jobRefused() {
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let job = ManualJob<Int, Int>()
        let started = Deadline.withValue(deadline) { Future.start(running: job, with: 3) }
        #expect(job.inputs.events.isEmpty)
        #expect(job.state == .failed)
        #expect(isExceeded(started, by: deadline))
    }

    @Test("an async job started after the deadline starts no task")
    func asyncJobRefused() {
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let runs = Counter()
        let started = Deadline.withValue(deadline) {
            Future<Int>.start(executingAsync: {
                runs.increment()
                return 1
            })
        }
        #expect(isExceeded(started, by: deadline))
        #expect(runs.value == 0)
    }

    @Test("starts before the deadline run as usual")
    func startsInTime() {
        let deadline = Deadline(after: .milliseconds(10), clock: DeadlineClock.manual())
        let (started, following) = Deadline.withValue(deadline) {
            (Future<Int>.start { 1 }, Future<Int>.startFollowing { .fulfilled(with: 2) })
        }
        #expect(started.peek()?.value == 1)
        #expect(following.peek()?.value == 2)
    }

    @Test("a step chained under a passed deadline still runs: the request's timeout ends the chain, not its steps")
    func stepsNotRefused() {
        let deadline = Deadline(after: .milliseconds(-1), clock: DeadlineClock.manual())
        let head = Promise<Int>()
        let runs = Counter()
        let step = Deadline.withValue(deadline) {
            head.future.then { value -> Int in
                runs.increment()
                return value + 1
            }
        }
        head.fulfil(with: 1)
        #expect(runs.value == 1)
        #expect(step.peek()?.value == 2)
    }
}
