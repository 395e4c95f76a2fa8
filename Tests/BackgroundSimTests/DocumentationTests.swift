@testable import BackgroundSim
import Foundation
import Testing

/// Documentation that quotes the code must stay true to it.
@Suite("Documentation")
struct DocumentationTests {
    func read(_ relativePath: String, _ file: String = #filePath) throws -> String {
        var root = URL(fileURLWithPath: file)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return try String(contentsOf: root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("docs/SCENARIOS.md shows the current default scenario")
    func defaultScenarioIsCurrent() throws {
        let text = try read("docs/SCENARIOS.md")
        let marker = "## The default scenario"
        let section = try #require(text.range(of: marker)).upperBound
        let body = text[section...]
        let open = try #require(body.range(of: "```json\n"))
        let close = try #require(body[open.upperBound...].range(of: "\n```"))
        let quoted = String(body[open.upperBound..<close.lowerBound])
        #expect(quoted == JSONWriter.pretty(ScenarioLoader.document(of: Scenario())),
                "regenerate the block with: .build/debug/bgsim scenario")
    }

    @Test("docs/OUTPUT.md documents every field of every report group, the app's own metrics' included")
    func outputFieldsDocumented() throws {
        let text = try read("docs/OUTPUT.md")
        var scenario = Scenario()
        scenario.app.metrics = [.contentAge(), .interval("upload"), .event("sent")]
        let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 1)
        let app = try #require(result.app.json)
        for group in [result.device.json, result.os.osJSON, result.os.metricKitJSON, ReportFormatter.json(result), app,
                      app["intervals"]?["upload"] ?? .null, app["events"]?["sent"] ?? .null] {
            guard case .object(let members) = group else { Issue.record("not an object"); continue }
            for member in members {
                #expect(text.contains("`\(member.key)`"), "docs/OUTPUT.md lacks \(member.key)")
            }
        }
    }

    @Test("docs/TUNING.md's cost of the documented example is the tuning output's: configuration-seeds, device-days, whether the guarantee holds")
    func tuningCostMatchesItsOutput() throws {
        let doc = try read("docs/TUNING.md")
        let output = try read("experiments/tune-coverdrop/tune.md")
        func number(_ text: String) -> Int { Int(text.filter(\.isNumber)) ?? -1 }
        // "the sequential procedure ran 1,280 configuration-seeds, 467,200 device-days"
        let claim = try #require(doc.firstMatch(of: /sequential procedure ran ([0-9,]+) configuration-seeds, ([0-9,]+) device-days/))
        // "1280 configuration-seeds in all (467200 device-days)"
        let measured = try #require(output.firstMatch(of: /([0-9]+) configuration-seeds in all \(([0-9]+) device-days\)/))
        #expect(number(String(claim.1)) == number(String(measured.1)))
        #expect(number(String(claim.2)) == number(String(measured.2)))
        let holds = !output.contains("the guarantee does not hold")
        let paragraph = String(doc[claim.range.lowerBound...].prefix(400))
        #expect(paragraph.contains("guarantee does\nnot hold") || paragraph.contains("guarantee does not hold") ? !holds : holds,
                "docs/TUNING.md says the guarantee \(holds ? "does not hold" : "holds"), the output the opposite")
    }

    @Test("every event kind has its own name, and docs/MODEL.md's trace table names every one")
    func traceNamesDeclaredOnce() throws {
        let names = DeviceEvent.Kind.allCases.map(\.name) + SystemEvent.Kind.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        for kind in DeviceEvent.Kind.allCases { #expect(WorldEvent.traceKindName(kind.rawValue) == kind.name) }
        for kind in SystemEvent.Kind.allCases { #expect(WorldEvent.traceKindName(kind.rawValue) == kind.name) }
        let model = try read("docs/MODEL.md")
        let table = try #require(model.range(of: "## Trace detail codes")).upperBound
        let section = String(model[table...].prefix { $0 != "#" })
        for name in names { #expect(section.contains("`\(name)`"), "docs/MODEL.md's trace table lacks \(name)") }
    }

    @Test("docs/OUTPUT.md documents every system log event and every reason its fields take")
    func logEventsDocumented() throws {
        let text = try read("docs/OUTPUT.md")
        let names = SystemLogEvent.Kind.allCases.map(\.rawValue) + LaunchDenial.allCases.map(\.rawValue)
            + TerminationReason.allCases.map(\.rawValue) + CrashReason.allCases.map(\.rawValue)
            + ExpirationCause.allCases.map(\.rawValue) + TaskSchedulerError.Code.allCases.map(\.name)
            + [KillReason.taskNotCompleted(identifier: "", serial: 0), .backgroundTaskAssertionTimeout, .jetsamFault, .cpuResourceLimit,
               .pushNotCompleted].map(\.name)
            + [LaunchReason.user, .backgroundTask, .backgroundURLSession, .remoteNotification].map(\.name)
        for name in names {
            #expect(text.contains("`\(name)`"), "docs/OUTPUT.md lacks \(name)")
        }
    }

    @Test("docs/MODEL.md's battery table gives every device model's capacity, voltage and energy as the code does")
    func batteryTableIsCurrent() throws {
        let text = try read("docs/MODEL.md")
        for model in DeviceModel.allCases {
            var device = DeviceParameters()
            device.model = model
            let joules = Int(device.batteryCapacityJoules.rounded())
            let mAh = Int(model.capacityMilliampHours)
            func grouped(_ value: Int) -> String {
                value >= 1_000 ? "\(value / 1_000)," + String(String(value % 1_000 + 1_000).dropFirst()) : "\(value)"
            }
            let row = "| \(grouped(mAh)) | \(JSONWriter.format(model.nominalVolts)) |"
            let line = text.split(separator: "\n").first { $0.hasPrefix("| \(model.rawValue) |") || $0.hasPrefix("| **\(model.rawValue)**") }
            let found = try #require(line, "docs/MODEL.md has no row for \(model.rawValue)")
            #expect(found.contains(row), "\(found) should contain \(row)")
            #expect(found.contains(grouped(joules)), "\(found) should give \(joules) J")
        }
    }

    @Test("the docs cite sources a reader has, never the planning material or design-document numbers")
    func docsStandAlone() throws {
        let files = ["README.md", "BENCHMARKS.md"] + ["ARCHITECTURE", "CHECKING", "WRITING-A-POLICY", "MODEL", "OUTPUT", "POLICIES", "RECIPES",
                                                     "SCENARIOS", "SOURCES", "SWEEPS", "WHATIF", "RUN-YOUR-OWN-CODE", "CALIBRATION", "FIELD-LOGS", "TUNING"].map { "docs/\($0).md" }
        for file in files {
            let text = try read(file)
            for banned in ["../shared", "shared/reference", "(reference/", "`reference/", "energy-model.md", "ios-background-execution.md", "shipped-apps.md", "seeds/", "seed 00"] {
                #expect(!text.contains(banned), "\(file) cites \(banned)")
            }
        }
    }

    @Test("every scenario in docs/RECIPES.md decodes and runs a day")
    func recipeExamplesRun() throws {
        let text = try read("docs/RECIPES.md")
        var blocks: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "```json\n"), let close = rest[open.upperBound...].range(of: "\n```") {
            blocks.append(String(rest[open.upperBound..<close.lowerBound]))
            rest = rest[close.upperBound...]
        }
        let scenarios = blocks.filter { !$0.contains("\"axes\"") }
        #expect(scenarios.count == 6, "the CoverDrop, Zashi, URL session, push, continued-processing and upload examples")
        for (index, block) in scenarios.enumerated() {
            let scenario = try ScenarioLoader.decode(block, source: "docs/RECIPES.md example \(index + 1)")
            #expect(scenario.app.policy.name == "recipe")
            let result = try SimulationRunner.run(scenario: scenario, seed: 1, days: 3)
            #expect(result.events > 0)
        }
    }

    @Test("docs/MODEL.md prints the wake rule table as the code has it, row by row")
    func wakeRuleTableIsCurrent() throws {
        let text = try read("docs/MODEL.md")
        #expect(text.contains(WakeRule.markdownTable), "replace the table under \"One way in\" with:\n\(WakeRule.markdownTable)")
    }

    @Test("docs/OUTPUT.md prints the reasons table as the code derives it from the wake rules, reason by reason")
    func reasonsTableIsCurrent() throws {
        let text = try read("docs/OUTPUT.md")
        #expect(text.contains(LaunchDenial.markdownTable), "replace the table under \"Launch decisions\" with:\n\(LaunchDenial.markdownTable)")
    }

    @Test("docs/ARCHITECTURE.md lists every public type of BackgroundSim, and no type that is not public")
    func publicTypesListed() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let sources = root.appendingPathComponent("Sources/BackgroundSim")
        var declared: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                // Top-level declarations only: nested types come with their parent.
                guard line.hasPrefix("public ") else { continue }
                let words = line.split(separator: " ")
                guard words.count >= 4 || (words.count >= 3 && words[1] != "final") else { continue }
                let kind = words[1] == "final" ? words[2] : words[1]
                let name = words[words[1] == "final" ? 3 : 2].prefix { $0.isLetter || $0.isNumber }
                if ["struct", "class", "enum", "protocol", "typealias"].contains(kind) { declared.insert(String(name)) }
            }
        }
        let text = try read("docs/ARCHITECTURE.md")
        let section = try #require(text.range(of: "### BackgroundSim\n")).upperBound
        let end = try #require(text.range(of: "### The other targets", range: section..<text.endIndex)).lowerBound
        var listed: Set<String> = []
        for line in text[section..<end].split(separator: "\n") where line.hasPrefix("| ") {
            let cells = line.split(separator: "|")
            guard cells.count >= 2 else { continue }
            for part in cells[1].split(separator: "`").enumerated() where part.offset % 2 == 1 { listed.insert(String(part.element)) }
        }
        #expect(declared.count > 50)
        #expect(declared.subtracting(listed).sorted() == [], "public but not listed in docs/ARCHITECTURE.md")
        #expect(listed.subtracting(declared).sorted() == [], "listed in docs/ARCHITECTURE.md but not public")
    }

    @Test("docs/ARCHITECTURE.md's table of doors names every file of each door's folder, and no other")
    func doorFoldersListed() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let system = root.appendingPathComponent("Sources/BackgroundSim/System")
        let text = try read("docs/ARCHITECTURE.md")
        let section = try #require(text.range(of: "### The doors\n")).upperBound
        let end = try #require(text.range(of: "\n## ", range: section..<text.endIndex)).lowerBound
        var folders = 0
        for line in text[section..<end].split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| door") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 3 else { continue }
            let folder = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`/"))
            let listed = Set(cells[2].split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { "\($0.element).swift" })
            let files = try FileManager.default.contentsOfDirectory(atPath: system.appendingPathComponent(folder).path)
            #expect(Set(files) == listed, "System/\(folder)/: on disk but not listed \(Set(files).subtracting(listed).sorted()), listed but not on disk \(listed.subtracting(files).sorted())")
            folders += 1
        }
        #expect(folders == 6)
        // No door's extension of the system is left flat in System/.
        let flat = try FileManager.default.contentsOfDirectory(atPath: system.path).filter { $0.hasPrefix("SimulatedSystem") && $0.hasSuffix(".swift") }
        #expect(flat == [])
    }

    @Test("a scenario number cited with a value in any doc has the code's default, and only the model and scenario docs cite the launch model's")
    func citedNumbersAgree() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" } + ["README.md"]
        // Every number's default, by its key (a key shared by two sections must agree to be checked).
        var defaults: [String: Double] = [:]
        var ambiguous: Set<String> = []
        for row in Scenario.numberRows {
            let key = String(row.path.split(separator: ".").last!)
            if let other = defaults[key], other != row.defaultValue { ambiguous.insert(key) }
            defaults[key] = row.defaultValue
        }
        let launchModelKeys = Set(HeuristicLaunchParameters.numberFields.map(\.key))
        var cited = 0
        for doc in docs.sorted() {
            let text = try read(doc)
            for (key, value) in defaults.sorted(by: { $0.key < $1.key }) where !ambiguous.contains(key) {
                // "`refreshRecencyDays` (21)", "`refreshRecencyDays` (21 [Inf])", "`runSeconds` (30 s)".
                let pattern = try Regex("`\(key)` \\(([0-9][0-9,.]*)")
                for match in text.matches(of: pattern) {
                    guard let number = Double(String(match.output[1].substring ?? "").replacingOccurrences(of: ",", with: "")
                        .trimmingCharacters(in: CharacterSet(charactersIn: "."))) else { continue }
                    cited += 1
                    #expect(number == value, "\(doc) cites \(key) as \(number); the code's default is \(value)")
                    if launchModelKeys.contains(key) {
                        #expect(doc == "docs/MODEL.md", "\(doc) states the launch model's \(key): say it once, in docs/MODEL.md")
                    }
                }
            }
        }
        #expect(cited > 20)
    }

    @Test("every doc that says after how long unused the app's launches stop says the launch model's days: refresh's or processing's, whichever the sentence is about")
    func recencyInProseAgrees() throws {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/\($0)" } + ["README.md"]
        let defaults = HeuristicLaunchParameters()
        // "unused for a week", "not opened for 21 days", "used your app within the past week".
        let pattern = try Regex("(?i)(unused|not used|not opened|used your app)[^.]{0,80}?([0-9]+ days|a week|past week)")
        var checked = 0
        for doc in docs.sorted() {
            let text = try read(doc)
            for match in text.matches(of: pattern) {
                let phrase = String(match.output[2].substring ?? "")
                let days: Double = phrase.hasSuffix("week") ? 7 : Double(String(phrase.prefix { $0.isNumber })) ?? -1
                // The task kind the sentence is about: the nearer of the two words before the phrase.
                let start: String.Index = text.index(match.range.lowerBound, offsetBy: -200, limitedBy: text.startIndex) ?? text.startIndex
                let before: Substring = text[start..<match.range.lowerBound]
                let refresh: String.Index? = before.ranges(of: "refresh").last?.lowerBound
                let processing: String.Index? = before.ranges(of: "processing").last?.lowerBound
                let aboutProcessing: Bool = processing.map { p in refresh.map { p > $0 } ?? true } ?? false
                let expected = aboutProcessing ? defaults.processingRecencyDays : defaults.refreshRecencyDays
                checked += 1
                #expect(days == expected, "\(doc): \"\(text[match.range])\" says \(days) days; \(aboutProcessing ? "processingRecencyDays" : "refreshRecencyDays") is \(expected)")
            }
        }
        #expect(checked >= 2)
    }

    @Test("docs/SWEEPS.md's container images are tagged with the current version")
    func imageTags() throws {
        let text = try read("docs/SWEEPS.md")
        let tags = text.components(separatedBy: "bgsim:").dropFirst().map { $0.prefix { $0.isNumber || $0 == "." } }.filter { !$0.isEmpty }
        #expect(!tags.isEmpty)
        #expect(tags.allSatisfy { $0 == BackgroundSimVersion.string }, "\(tags)")
    }

    @Test("every README that says how many of the iOS model's numbers --model-uncertainty draws gives the count the code draws")
    func drawnNumbersCount() throws {
        let count = ModelUncertainty.standard.parameters.count
        var quoted = 0
        for path in ["README.md", "experiments/designed-vs-shipped/README.md", "experiments/which-door/README.md"] {
            let text = try read(path)
            for piece in text.components(separatedBy: " of the iOS model's").dropLast() {
                let number = piece.reversed().prefix { $0.isNumber }.reversed()
                guard !number.isEmpty else { continue }
                quoted += 1
                #expect(Int(String(number)) == count, "\(path): \(String(number)) of the iOS model's numbers, but \(count) are drawn")
            }
        }
        #expect(quoted >= 3)
    }
}
