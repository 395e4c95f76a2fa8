@testable import BackgroundSim
import Foundation
import SimKernel
import Testing

@Suite("Scenario documents")
struct ScenarioTests {
    func issues(_ text: String) -> [ScenarioIssue] {
        do {
            _ = try ScenarioLoader.decode(text, source: "test.json")
            return []
        } catch {
            return error.issues
        }
    }

    @Test("a scenario file with a byte order mark reads like one without; a key with an invisible character is named with it escaped")
    func byteOrderMarkAndInvisibleKeys() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bgsim-bom-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "\u{FEFF}{\"user\": {\"sessionsPerDay\": 9}}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try ScenarioLoader.load(path: path).user.sessionsPerDay == 9)
        #expect(issues("{\"user\": {\"sessions\u{2060}PerDay\": 9}}").map(\.path) == ["user.\"sessions\\u{2060}PerDay\""])
    }

    /// A guard, not a timing: the limit is hundreds of times what the linear encoding takes, and
    /// the quadratic one took about 15 minutes.
    @Test("a scenario with 100,000 given push times is laid under a fragment, re-encoded and written in linear time", .timeLimit(.minutes(1)))
    func longArraysReencodeInLinearTime() throws {
        var scenario = Scenario()
        scenario.pushes.schedule = .times
        scenario.pushes.atHours = (0..<100_000).map { Double($0) / 100 }
        let layered = try ScenarioLoader.overlay("{}", source: "empty.json", over: scenario)
        #expect(layered.pushes.atHours == scenario.pushes.atHours)
        let text = JSONWriter.pretty(ScenarioLoader.document(of: layered))
        #expect(try ScenarioLoader.decode(text, source: "written.json").pushes.atHours.count == 100_000)
    }

    @Test("{} is the default scenario")
    func emptyIsDefault() throws {
        #expect(try ScenarioLoader.decode("{}", source: "test.json") == Scenario())
    }

    @Test("a partial document overrides only what it names")
    func partialOverride() throws {
        let scenario = try ScenarioLoader.decode("""
            {"name": "x", "user": {"sessionsPerDay": 80, "app": {"profile": "weekly"}},
             "device": {"model": "iPhone 12 mini", "capacityMilliampHours": 2000},
             "power": {"overnightPlugIn": "22:15"}, "calendar": {"startDate": "2026-03-02"}}
            """, source: "test.json")
        var expected = Scenario()
        expected.name = "x"
        expected.user.sessionsPerDay = 80
        expected.user.app.profile = .weekly
        expected.device.model = .iPhone12Mini
        expected.device.capacityMilliampHours = 2000
        expected.power.overnightPlugIn = TimeOfDay(hour: 22, minute: 15)
        expected.calendar.startDate = CivilDate(year: 2026, month: 3, day: 2)!
        #expect(scenario == expected)
    }

    @Test("a fragment laid over a preset: objects merge key by key, values and arrays replace, null leaves, the base keeps its name")
    func overlayMergeRule() throws {
        let base = try #require(Presets.scenario(named: "coverdrop-shipped"))
        let result = try ScenarioLoader.overlay("""
            {"name": "ignored", "description": "ignored",
             "system": {"heuristic": {"refreshBasePerDay": 2.5}},
             "app": {"backgroundModes": ["fetch"], "policy": {"parameters": {"messagesPerRun": 3}}},
             "user": {"sessionsPerDay": null}}
            """, source: "f.json", over: base)
        var expected = base
        expected.system.heuristic.refreshBasePerDay = 2.5
        expected.app.backgroundModes = [.fetch]
        var parameters = try #require(base.app.policy.parameters(as: CoverDropShippedParameters.self))
        parameters.messagesPerRun = 3
        expected.app.policy.parameters = parameters
        #expect(result == expected)
        #expect(result.name == "coverdrop-shipped" && result.user.sessionsPerDay == base.user.sessionsPerDay)
    }

    @Test("a fragment that names another policy starts that policy's parameters from its defaults; a bad fragment names its file and field")
    func overlayPolicyAndErrors() throws {
        let base = try #require(Presets.scenario(named: "coverdrop-shipped"))
        let other = try ScenarioLoader.overlay(#"{"app": {"policy": {"name": "probe-refresh"}}}"#, source: "f.json", over: base)
        #expect(other.app.policy.name == "probe-refresh")
        #expect(other.app.policy.parameters.isEqual(to: NoParameters()))
        do {
            _ = try ScenarioLoader.overlay(#"{"system": {"heuristic": {"refreshBasePerDa": 2}}}"#, source: "fitted.json", over: base)
            Issue.record("a misspelt key was accepted")
        } catch {
            #expect(error.description.contains("fitted.json") && error.description.contains("system.heuristic.refreshBasePerDa: unknown key"),
                    "\(error.description)")
        }
        do {
            _ = try ScenarioLoader.overlay(#"{"system": {"heuristic": {"refreshBasePerDay": -1}}}"#, source: "fitted.json", over: base)
            Issue.record("an out-of-range value was accepted")
        } catch {
            #expect(error.description.contains("system.heuristic.refreshBasePerDay"), "\(error.description)")
        }
    }

    @Test("every default round-trips through its JSON document")
    func roundTrip() throws {
        let text = JSONWriter.pretty(ScenarioLoader.document(of: Scenario()))
        #expect(try ScenarioLoader.decode(text, source: "test.json") == Scenario())
    }

    @Test("each kind of mistake is reported with its path and expectation", arguments: [
        (#"{"user": {"sesionsPerDay": 10}}"#, "user.sesionsPerDay", "did you mean \"sessionsPerDay\""),
        (#"{"usr": {}}"#, "usr", "did you mean \"user\""),
        (#"{"zzzzzzzz": 1}"#, "zzzzzzzz", "known keys here: "),
        (#"{"power": {"topUpsPerDay": "two"}}"#, "power.topUpsPerDay", "expected a number, got a string"),
        (#"{"user": {"app": 3}}"#, "user.app", "expected an object, got a number"),
        (#"{"device": {"capacityMilliampHours": 90000}}"#, "device.capacityMilliampHours", "expected a number from 500 to 10000, got 90000"),
        (#"{"user": {"app": {"profile": "hourly"}}}"#, "user.app.profile", "expected one of \"severalTimesADay\""),
        (#"{"device": {"model": "iPhone 99"}}"#, "device.model", "expected one of \"iPhone 12 mini\""),
        (#"{"power": {"overnightPlugIn": "25:00"}}"#, "power.overnightPlugIn", "expected a time of day as \"HH:MM\""),
        (#"{"calendar": {"startDate": "2026-02-30"}}"#, "calendar.startDate", "expected a date as \"YYYY-MM-DD\""),
        (#"{"power": {"optimizedChargingLearningDays": 2.5}}"#, "power.optimizedChargingLearningDays", "expected a whole number, got 2.5"),
        (#"{"user": {"app": {"absences": [{"startDay": 1.5, "days": 2}]}}}"#, "user.app.absences[0].startDay", "expected a whole number"),
        (#"{"user": {"hourlyWeights": [1, 2]}}"#, "user.hourlyWeights", "expected 24 weights"),
        (#"{"user": {"hourlyWeights": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}}"#, "user.hourlyWeights", "at least one weight above 0"),
        (#"{"calendar": {"startDate": "+026-01-05"}}"#, "calendar.startDate", "expected a date as \"YYYY-MM-DD\""),
        (#"{"user": {"app": {"absences": [{"startDay": 3, "dayz": 2}]}}}"#, "user.app.absences[0].dayz", "did you mean \"days\""),
        (#"{"user": {"app": {"absences": [{"startDay": 3, "days": 0}]}}}"#, "user.app.absences[0].days", "from 1 to"),
        (#"{"network": {"wifiShare": 0.2}}"#, "network.wifiShare", "home Wi-Fi"),
        (#"{"network": {"goodSignalShare": 0.9, "poorSignalShare": 0.3}}"#, "network.poorSignalShare", "from 0 to 0.1, got 0.3"),
        (#"{"device": {"thermal": {"fairWatts": 5}}}"#, "device.thermal", "fairWatts < seriousWatts"),
        (#"{"clock": {"jumps": [{"atHours": 5}]}}"#, "clock.jumps[0].byMinutes", "required"),
        (#"{"device": {"battery": {"capacityMilliampHourz": 3000}}}"#, "device.battery", "did you mean \"device.capacityMilliampHours\" (one level up)?"),
        (#"{"power": {"optimizedChargingLearningDays": 1e30}}"#, "power.optimizedChargingLearningDays", "at most 2^53"),
        (#"{"": 1}"#, "\"\"", "unknown key"),
        (#"{"system": {"push": {"minimumSpacingMinutes": 15}}}"#, "system.push.minimumSpacingMinutes", "it is now \"burstDeliveries\""),
        (#"{"system": {"backgroundURLSession": {"relaunchDelaySeconds": 60}}}"#, "system.backgroundURLSession.relaunchDelaySeconds",
         "it is now \"resumeDelaySeconds\""),
        (#"{"restarts": {"updateHour": 24}}"#, "restarts.updateHour", "from 0 to 23.99"),
        (#"{"faults": {"jetsams": ["# + Array(repeating: #"{"atHours": 1}"#, count: 1_001).joined(separator: ",") + "]}}",
         "faults.jetsams", "expected at most 1000 entries, got 1001"),
        (#"{"faults": {"networkFlaps": [{"fromHours": 0, "toHours": 2000, "offSeconds": 1, "onSeconds": 1}]}}"#,
         "faults.networkFlaps", "expected at most 1000000 off/on cycles in all windows (each is two events), got 3600000"),
    ])
    func mistakes(document: String, path: String, message: String) {
        let found = issues(document)
        #expect(found.contains { $0.path == path && $0.message.contains(message) }, "got \(found)")
    }

    @Test("all problems are reported at once: range problems, and unknown keys with them")
    func allProblemsAtOnce() {
        let found = issues(#"{"user": {"sessionsPerDay": -1, "sessionSigma": 9}, "power": {"chargeLimitPercent": 20}}"#)
        #expect(Set(found.map(\.path)) == ["user.sessionsPerDay", "user.sessionSigma", "power.chargeLimitPercent"])
        let mixed = issues(#"{"user": {"sesionsPerDay": 3, "sessionMedianSeconds": 0}, "device": {"capacityMilliampHours": 90000}}"#)
        #expect(mixed.map(\.path) == ["user.sesionsPerDay", "user.sessionMedianSeconds", "device.capacityMilliampHours"])
    }

    @Test("a name the decoder refuses does not hide the rest: misspelt names, a bad time, an unknown key and a range problem all reported, with suggestions")
    func refusedNamesDoNotHideTheRest() {
        let found = issues(#"{"system": {"launchModel": "heuristik"}, "user": {"sleepStart": "25:99", "sessionsPerDay": -1}, "apx": 1, "#
                           + #""app": {"policy": {"name": "coverdrop-designed", "parameters": {"meanDelayMinutes": -5}}}, "device": {"model": "iPhone 15 Pr"}}"#)
        #expect(Set(found.map(\.path)) == ["system.launchModel", "user.sleepStart", "user.sessionsPerDay", "apx", "app.policy.parameters.meanDelayMinutes",
                                           "device.model"], "got \(found)")
        #expect(found.contains { $0.path == "system.launchModel" && $0.message.hasSuffix(#"did you mean "heuristic"?"#) })
        #expect(found.contains { $0.path == "device.model" && $0.message.hasSuffix(#"did you mean "iPhone 15 Pro"?"#) })
    }

    @Test("a sealed document loads, re-indented too; a changed value fails its seal naming it and the way out; without the seal the changed document loads")
    func sealedDocuments() throws {
        let fragment = JSONValue.object([("system", .object([("heuristic", .object([("refreshBasePerDay", .number(0.948))]))]))])
        let sealed = DocumentSeal.sealed(fragment, by: "bgsim calibrate")
        let compact = JSONWriter.compact(sealed), pretty = JSONWriter.pretty(sealed)
        #expect(compact.hasSuffix(#","sealedBy":{"tool":"bgsim calibrate","content":""# + DocumentSeal.digest(fragment) + "\"}}"))
        let expected = try ScenarioLoader.decode(JSONWriter.compact(fragment), source: "f.json")
        #expect(try ScenarioLoader.decode(compact, source: "f.json") == expected)
        #expect(try ScenarioLoader.decode(pretty, source: "f.json") == expected)
        #expect(try ScenarioLoader.overlay(pretty, source: "f.json", over: Scenario()) == expected)
        let edited = pretty.replacingOccurrences(of: "0.948", with: "1.594")
        for load in [{ _ = try ScenarioLoader.decode(edited, source: "f.json") }, { _ = try ScenarioLoader.overlay(edited, source: "f.json", over: Scenario()) }]
            as [() throws -> Void] {
            do {
                try load()
                Issue.record("an edited sealed document was accepted")
            } catch let error as ScenarioError {
                #expect(error.issues.map(\.path) == ["sealedBy"])
                #expect(error.description.contains("written by bgsim calibrate and has changed since") && error.description.contains("delete \"sealedBy\""))
            }
        }
        let unsealed = try JSONParser.parse(edited)
        guard case .object(let members) = unsealed else { return }
        let acknowledged = try ScenarioLoader.decode(JSONWriter.compact(.object(members.filter { $0.key != "sealedBy" })), source: "f.json")
        #expect(acknowledged.system.heuristic.refreshBasePerDay == 1.594)
    }

    @Test("malformed JSON is reported with line and column", arguments: [
        ("{\n  \"a\": 1,\n}", "line 3, column 1"),
        ("{\"a\": tru}", "expected 'true'"),
        ("[1, 2", "expected ',' or ']'"),
        ("{\"a\": 1} x", "unexpected text after the end"),
        ("{\"a\": 1, \"a\": 2}", "appears twice"),
        ("{\"a\": \"\\q\"}", "invalid escape"),
        ("{\"a\": 01}", "expected ',' or '}'"),
        ("", "found the end of the document"),
    ])
    func malformed(text: String, message: String) {
        let found = issues(text)
        #expect(found.count == 1 && found[0].message.contains(message), "got \(found)")
    }

    @Test("a top level that is not an object is rejected")
    func topLevelArray() {
        #expect(issues("[]").first?.message.contains("expected an object") == true)
    }

    @Test("the JSON parser reads what the writer writes, including escapes and Unicode")
    func parserWriterRoundTrip() throws {
        let value = JSONValue.object([
            ("text", .string("quote \" backslash \\ newline \n tab \t control \u{1} é 😀")),
            ("numbers", .array([.number(0), .number(-1.5), .number(1e-7), .number(123456789012)])),
            ("flags", .array([.bool(true), .bool(false), .null])),
            ("nested", .object([("empty", .object([])), ("list", .array([]))])),
        ])
        #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
        #expect(try JSONParser.parse(JSONWriter.pretty(value)) == value)
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
    }

    @Test("deeply nested documents are refused, not a stack overflow")
    func depthLimit() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(text) }
    }
}

@Suite("Calendar and clock")
struct CalendarTests {
    @Test("civil dates convert to and from days since 1970 and know their weekday")
    func civilDates() {
        #expect(CivilDate(year: 1970, month: 1, day: 1)!.daysSinceEpoch == 0)
        #expect(CivilDate(year: 2026, month: 1, day: 5)!.weekday == .monday)
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2026, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2000, month: 3, day: 1)!.adding(days: -1).description == "2000-02-29")
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }

    @Test("the calendar maps instants to days and times of day, from any start time")
    func simCalendar() {
        let calendar = SimCalendar(startDate: CivilDate(year: 2026, month: 1, day: 5)!, startTime: TimeOfDay(hour: 22))
        #expect(calendar.day(of: .start) == 0)
        #expect(calendar.timeOfDay(at: .start) == .hours(22))
        #expect(calendar.day(of: .start + .hours(2)) == 1)
        #expect(calendar.midnight(ofDay: 1) == .start + .hours(2))
        #expect(calendar.weekday(ofDay: 1) == .tuesday)
        #expect(calendar.day(of: .start - .hours(23)) == -1)
    }

    @Test("times of day parse HH:MM and reject the rest")
    func timesOfDay() {
        #expect(TimeOfDay(parsing: "07:05") == TimeOfDay(hour: 7, minute: 5))
        #expect(TimeOfDay(parsing: "7:05") == TimeOfDay(hour: 7, minute: 5))
        for bad in ["24:00", "07:60", "7", "07:5", "ab:cd", "", "+7:00", "-7:00", "07:+5"] {
            #expect(TimeOfDay(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("the device clock jumps at scenario times while true time runs on")
    func deviceClockJumps() throws {
        var scenario = Scenario()
        scenario.clock.jumps = [ClockJump(atHours: 10, byMinutes: 90), ClockJump(atHours: 30, byMinutes: -30)]
        let run = try RecordedRun(scenario, days: 2)
        let jumps = run.records.filter { $0.kind == DeviceEvent.clockJump(seconds: 0).traceKind }
        #expect(jumps.map(\.time) == [.start + .hours(10), .start + .hours(30)])
        #expect(jumps.map(\.detail) == [5_400, -1_800])
        #expect(run.device.clock.offset == .minutes(60))
        #expect(run.device.clock.reading(at: .start + .days(2)) == .start + .days(2) + .hours(1))
    }

    @Test("random clock jumps arrive at about the configured rate")
    func randomJumps() throws {
        var scenario = Scenario()
        scenario.clock.randomJumpsPerDay = 2
        let run = try RecordedRun(scenario, days: 100)
        // Poisson(200): standard deviation 14; allow 4 σ.
        #expect(abs(run.device.metrics.clockJumps - 200) < 57, "\(run.device.metrics.clockJumps) jumps")
    }
}

@Suite("Thermal model")
struct ThermalTests {
    @Test("the heat level approaches its input with the time constant")
    func firstOrder() {
        var model = ThermalModel(parameters: ThermalParameters(), at: .start)
        model.setInput(consumptionWatts: 5, chargingWatts: 0)
        model.advance(to: .start + .minutes(10))
        // One time constant: 1 − 1/e of the way.
        #expect(abs(model.heatWatts - 5 * (1 - 0.367_879_441)) < 1e-6)
        #expect(model.state == .fair)
        model.advance(to: .start + .hours(3))
        #expect(model.state == .serious)
        model.setInput(consumptionWatts: 0.065, chargingWatts: 0)
        model.advance(to: .start + .hours(6))
        #expect(model.state == .nominal)
    }

    @Test("charging while in use warms the phone; idle never does")
    func chargingWarms() {
        var model = ThermalModel(parameters: ThermalParameters(), at: .start)
        model.setInput(consumptionWatts: 1.1, chargingWatts: 15.6)
        model.advance(to: .start + .hours(1))
        #expect(model.state == .fair)
        model.setInput(consumptionWatts: 0.065, chargingWatts: 3.5)
        model.advance(to: .start + .hours(3))
        #expect(model.state == .nominal)
    }
}
