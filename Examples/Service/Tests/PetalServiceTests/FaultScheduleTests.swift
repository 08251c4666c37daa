import Testing

@testable import PetalService

/// `--faults KIND@STARTs+LENGTHs[,...]`: what the parser accepts, what it refuses and why, and
/// which phase a moment of the run falls in.
@Suite("The fault schedule")
struct FaultScheduleTests {
    private static let second: UInt64 = 1_000_000_000

    @Test("faults in any order become contiguous phases, calm between them and after")
    func phasesCoverTheRun() throws {
        let schedule = try FaultSchedule(parsing: "slow@25s+10s,outage@5s+5s,hang@15s+5s")
        let s = Self.second
        #expect(
            schedule.phases == [
                .init(start: 0, end: 5 * s, kind: nil),
                .init(start: 5 * s, end: 10 * s, kind: .outage),
                .init(start: 10 * s, end: 15 * s, kind: nil),
                .init(start: 15 * s, end: 20 * s, kind: .hang),
                .init(start: 20 * s, end: 25 * s, kind: nil),
                .init(start: 25 * s, end: 35 * s, kind: .slow),
                .init(start: 35 * s, end: .max, kind: nil),
            ])
        #expect(!schedule.isEmpty)
    }

    @Test("a fault from 0, and faults that meet, leave no empty calm phase")
    func adjacentFaults() throws {
        let schedule = try FaultSchedule(parsing: "outage@0s+1.5s,hang@1.5s+0.25s")
        #expect(schedule.phases.map(\.name) == ["outage", "hang", "calm"])
        #expect(schedule.phases[1].start == 1_500_000_000)
        #expect(schedule.phases[1].end == 1_750_000_000)
    }

    @Test("the lookup finds the phase of each moment, the start of a phase included and its end not")
    func lookup() throws {
        let schedule = try FaultSchedule(parsing: "outage@1s+1s,slow@3s+2s")
        let s = Self.second
        let cases: [(UInt64, String)] = [
            (0, "calm"), (s - 1, "calm"), (s, "outage"), (2 * s - 1, "outage"), (2 * s, "calm"),
            (3 * s, "slow"), (5 * s - 1, "slow"), (5 * s, "calm"), (.max - 1, "calm"),
        ]
        for (elapsed, name) in cases {
            #expect(schedule.phases[schedule.phase(at: elapsed)].name == name, "at \(elapsed) ns")
        }
    }

    @Test("without faults there is one calm phase, and no fault before the server starts")
    func noFaults() throws {
        let schedule = FaultSchedule()
        #expect(schedule.isEmpty)
        #expect(schedule.phases == [.init(start: 0, end: .max, kind: nil)])
        #expect(schedule.current() == nil)
        let outage = try FaultSchedule(parsing: "outage@0s+60s")
        #expect(outage.elapsed() == 0)  // not begun: the phases count from `begin()`
        outage.begin()
        #expect(outage.current() == .outage)
    }

    @Test(
        "a bad schedule is refused with a message naming what is wrong",
        arguments: [
            ("", "is empty"),
            ("outage", "is not KIND@STARTs+LENGTHs"),
            ("outage@1s", "is not KIND@STARTs+LENGTHs"),
            ("outage@1s+1s+1s", "is not KIND@STARTs+LENGTHs"),
            ("boom@1s+1s", "unknown fault 'boom'"),
            ("Outage@1s+1s", "unknown fault 'Outage'"),
            ("outage@1+1s", "'1' is not a time in seconds"),
            ("outage@1s+1", "'1' is not a time in seconds"),
            ("outage@s+1s", "'s' is not a time in seconds"),
            ("outage@-1s+1s", "'-1s' is not a time in seconds"),
            ("outage@+1s+1s", "is not KIND@STARTs+LENGTHs"),
            ("outage@1e3s+1s", "'1e3s' is not a time in seconds"),
            ("outage@nans+1s", "'nans' is not a time in seconds"),
            ("outage@infs+1s", "'infs' is not a time in seconds"),
            ("outage@1.s+1s", "'1.s' is not a time in seconds"),
            ("outage@.5s+1s", "'.5s' is not a time in seconds"),
            ("outage@١s+1s", "is not a time in seconds"),
            ("outage@1s+0s", "the length must be above 0"),
            ("outage@1s+0.0s", "the length must be above 0"),
            ("outage@86401s+1s", "is past a day"),
            ("outage@1s+99999999999999999999s", "is past a day"),
            ("outage@1.0000000001s+1s", "more than 9 decimals"),
            ("outage@1s+1s,", "an empty entry"),
            (",outage@1s+1s", "an empty entry"),
            ("outage@1s+2s,hang@2s+1s", "overlaps"),
            ("slow@0s+10s,outage@5s+1s", "overlaps"),
        ])
    func refused(text: String, message: String) {
        #expect {
            try FaultSchedule(parsing: text)
        } throws: { error in
            let description = (error as? Options.Problem)?.description ?? ""
            return description.hasPrefix("--faults ") && description.contains(message)
        }
    }

    @Test("the command line takes --faults once, in either form, and refuses it twice")
    func commandLine() throws {
        let options = try Options(["--faults=hang@2s+3s"])
        #expect(options.faults.phases.map(\.name) == ["calm", "hang", "calm"])
        #expect(try Options(["--faults", "slow@0s+1s"]).faults.phases.first?.kind == .slow)
        #expect(try Options([]).faults.isEmpty)
        #expect(throws: Options.Problem.self) { try Options(["--faults", "hang@1s+1s", "--faults", "slow@5s+1s"]) }
        #expect(throws: Options.Problem.self) { try Options(["--faults"]) }
    }
}
