import Petal
import Testing

/// `grpc-timeout` in and out: exactly the gRPC over HTTP/2 grammar read, hostile values
/// ignored, and the time left written in the finest unit that fits eight digits.
@Suite("Deadlines: grpc-timeout")
struct GRPCTimeoutTests {
    @Test(
        "every unit is read as the specification defines it",
        arguments: [
            ("1n", Duration.nanoseconds(1)),
            ("250u", .microseconds(250)),
            ("20m", .milliseconds(20)),
            ("3S", .seconds(3)),
            ("2M", .seconds(120)),
            ("1H", .seconds(3_600)),
            ("00000007S", .seconds(7)),
            ("99999999n", .nanoseconds(99_999_999)),
            ("0m", .zero),
        ])
    func readsEveryUnit(text: String, budget: Duration) {
        let clock = DeadlineClock.manual()
        let arrival = clock.now
        let deadline = Deadline(grpcTimeout: text, from: arrival, clock: clock)
        #expect(deadline?.instant == arrival.advanced(by: budget))
        #expect(deadline?.clock === clock)
    }

    @Test(
        "anything but one to eight ASCII digits and one unit is no deadline",
        arguments: [
            "", "S", "m", "10", "123456789S", "1s", "1h", "1Mi", "+1S", "-1S", " 1S", "1S ", "1 S", "1.5S",
            "0x1S", "1e3m", "١S", "１S", "1\u{0}S", "1SS", "S1", "99999999999999999999S",
        ])
    func rejectsHostileValues(text: String) {
        #expect(Deadline(grpcTimeout: text, clock: .manual()) == nil)
    }

    @Test("a substring is read as the string it is (a header sliced out of a larger buffer)")
    func readsSubstrings() {
        let clock = DeadlineClock.manual()
        let header = "grpc-timeout: 15m"
        let value = header[header.index(header.endIndex, offsetBy: -3)...]
        #expect(Deadline(grpcTimeout: value, from: clock.now, clock: clock)?.remaining == .milliseconds(15))
    }

    @Test("the longest value is shortened to a century, without trapping")
    func longestValueIsBounded() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(grpcTimeout: "99999999H", from: clock.now, clock: clock)
        #expect(deadline?.remaining == DeadlineClock.longestWait)
        #expect(deadline?.grpcTimeout == "52596000M")
    }

    @Test(
        "the time left is written in the finest unit that holds it in eight digits, rounded down",
        arguments: [
            (Duration.nanoseconds(1), "1n"),
            (.milliseconds(20), "20000000n"),
            (.nanoseconds(99_999_999), "99999999n"),
            (.milliseconds(100), "100000u"),
            (.nanoseconds(100_000_999), "100000u"),
            (.seconds(100), "100000m"),
            (.seconds(100_000), "100000S"),
            (.seconds(99_999_999), "99999999S"),
            (.seconds(100_000_000), "1666666M"),
            // Past a century (shortened to it): never hours, a century is 52 596 000 minutes.
            (.seconds(6_000_000_000), "52596000M"),
        ])
    func writesFinestUnit(left: Duration, text: String) {
        let clock = DeadlineClock.manual()
        #expect(Deadline(after: left, from: clock.now, clock: clock).grpcTimeout == text)
    }

    @Test("a deadline passed is written as zero, and read back as passed")
    func passedIsZero() {
        let clock = DeadlineClock.manual()
        let deadline = Deadline(after: .milliseconds(5), clock: clock)
        clock.advance(by: .milliseconds(6))
        #expect(deadline.grpcTimeout == "0n")
        #expect(Deadline(grpcTimeout: deadline.grpcTimeout, clock: clock)?.hasPassed == true)
    }

    @Test("what is written reads back as the same time left, within the unit's rounding")
    func roundTrips() {
        let clock = DeadlineClock.manual()
        for left in [Duration.nanoseconds(7), .microseconds(1_234_567), .seconds(42), .seconds(86_400 * 400)] {
            let text = Deadline(after: left, from: clock.now, clock: clock).grpcTimeout
            let read = Deadline(grpcTimeout: text, from: clock.now, clock: clock)
            #expect(read != nil)
            #expect(read.map { $0.remaining <= left } == true)
        }
    }
}
