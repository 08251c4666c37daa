/// `PetalService --self-check`: the fault schedule's parser and phase lookup against known
/// answers, run by `Scripts/service --faults` (and its smoke) before any load.
///
/// A mode of the server rather than a test target: a test target in this package makes
/// SwiftPM skip the build of `Examples/ResilientServer` that `Scripts/service` runs next in the
/// same build directory (measured: the build reports success and makes no binary), and sharing
/// that directory is what keeps CI's smoke to seconds of compilation.
enum FaultScheduleSelfCheck {
    private static let second: UInt64 = 1_000_000_000

    /// Runs every check; prints each failure and a summary line. Returns whether all passed.
    static func run() -> Bool {
        var checks = 0
        var failures: [String] = []
        func expect(_ condition: Bool, _ what: @autoclosure () -> String) {
            checks += 1
            if !condition { failures.append(what()) }
        }
        let s = second

        // Faults in any order become contiguous phases, calm between them and after.
        expect(
            phases("slow@25s+10s,outage@5s+5s,hang@15s+5s") == [
                .init(start: 0, end: 5 * s, kind: nil), .init(start: 5 * s, end: 10 * s, kind: .outage),
                .init(start: 10 * s, end: 15 * s, kind: nil), .init(start: 15 * s, end: 20 * s, kind: .hang),
                .init(start: 20 * s, end: 25 * s, kind: nil), .init(start: 25 * s, end: 35 * s, kind: .slow),
                .init(start: 35 * s, end: .max, kind: nil),
            ], "three faults out of order: \(phases("slow@25s+10s,outage@5s+5s,hang@15s+5s") ?? [])")
        // A fault from 0, and faults that meet, leave no empty calm phase; fractions are exact.
        expect(
            phases("outage@0s+1.5s,hang@1.5s+0.25s") == [
                .init(start: 0, end: 1_500_000_000, kind: .outage),
                .init(start: 1_500_000_000, end: 1_750_000_000, kind: .hang),
                .init(start: 1_750_000_000, end: .max, kind: nil),
            ], "faults that meet: \(phases("outage@0s+1.5s,hang@1.5s+0.25s") ?? [])")
        // The lookup finds each moment's phase, a phase's start included and its end not.
        if let schedule = try? FaultSchedule(parsing: "outage@1s+1s,slow@3s+2s") {
            let moments: [(UInt64, String)] = [
                (0, "calm"), (s - 1, "calm"), (s, "outage"), (2 * s - 1, "outage"), (2 * s, "calm"),
                (3 * s, "slow"), (5 * s - 1, "slow"), (5 * s, "calm"), (.max - 1, "calm"),
            ]
            for (elapsed, name) in moments {
                let found = schedule.phases[schedule.phase(at: elapsed)].name
                expect(found == name, "at \(elapsed) ns: \(found), not \(name)")
            }
        } else {
            expect(false, "outage@1s+1s,slow@3s+2s refused")
        }
        // Without faults: one calm phase, and no clock read. A schedule counts from `begin()`.
        let none = FaultSchedule()
        expect(none.isEmpty && none.current() == nil, "no faults: not calm")
        expect(none.phases == [.init(start: 0, end: .max, kind: nil)], "no faults: \(none.phases)")
        if let outage = try? FaultSchedule(parsing: "outage@0s+60s") {
            expect(outage.elapsed() == 0, "a schedule not begun has run \(outage.elapsed()) ns")
            outage.begin()
            expect(outage.current() == .outage, "outage@0s+60s just begun: \(String(describing: outage.current()))")
        }
        // Bad schedules are refused, with a message naming what is wrong.
        for (text, message) in refusals {
            do {
                _ = try FaultSchedule(parsing: text)
                expect(false, "'\(text)' accepted")
            } catch {
                let description = (error as? Options.Problem)?.description ?? "\(error)"
                expect(
                    description.hasPrefix("--faults ") && description.contains(message),
                    "'\(text)': '\(description)' does not say '\(message)'")
            }
        }
        // The command line takes --faults once, in either form.
        expect((try? Options(["--faults=hang@2s+3s"]))?.faults.phases.count == 3, "--faults=hang@2s+3s")
        expect((try? Options(["--faults", "slow@0s+1s"]))?.faults.phases.first?.kind == .slow, "--faults slow@0s+1s")
        expect(
            (try? Options(["--faults", "shift@0s+1s"]))?.faults.phases.first?.kind == .shift, "--faults shift@0s+1s")
        expect((try? Options([]))?.faults.isEmpty == true, "no --faults: faults")
        expect((try? Options(["--faults", "hang@1s+1s", "--faults", "slow@5s+1s"])) == nil, "--faults twice accepted")
        expect((try? Options(["--faults"])) == nil, "--faults without a value accepted")

        for failure in failures { print("self-check FAILED: \(failure)") }
        print("self-check: \(checks - failures.count) of \(checks) fault-schedule checks passed")
        return failures.isEmpty
    }

    /// Schedules that must be refused, and what their message must say.
    private static let refusals: [(String, String)] = [
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
    ]

    /// The phases `text` parses into, or `nil` if refused.
    private static func phases(_ text: String) -> [FaultSchedule.Phase]? {
        (try? FaultSchedule(parsing: text))?.phases
    }
}
