@testable import BackgroundSim
import Foundation
import Testing

/// Each scenario number's valid range is stated once (``NumberField``): these tests hold the
/// scenario format, the doc comments and docs/SCENARIOS.md to it, so a renamed field, an
/// unvalidated number or a range stated differently elsewhere fails.
@Suite("Scenario numbers, stated once")
struct NumberFieldTests {
    static var root: URL {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { root.deleteLastPathComponent() }
        return root
    }

    /// The numeric leaves of the default scenario's document, by path (arrays and the policy's
    /// parameters left out: lists are checked entry by entry, a policy's parameters by itself).
    static func numericLeaves() -> [String] {
        var paths: [String] = []
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members):
                for member in members where !(path.isEmpty && ["app", "faults", "debugger", "calendar"].contains(member.key)) {
                    walk(member.value, path.isEmpty ? member.key : "\(path).\(member.key)")
                }
            case .number: paths.append(path)
            default: break
            }
        }
        walk(ScenarioLoader.document(of: Scenario()), "")
        return paths
    }

    @Test("every number of the default scenario has a field with a valid range, and every field is a number of the scenario")
    func fieldsCoverTheFormat() {
        let fields = Set(Scenario.numberRows.map(\.path))
        let leaves = Set(Self.numericLeaves())
        // Numbers whose validity depends on a choice elsewhere: checked as relations, stated in SCENARIOS.md's prose.
        let relations: Set<String> = ["device.capacityMilliampHours", "device.nominalVolts"]
        #expect(leaves.subtracting(fields).subtracting(relations).sorted() == [], "numbers with no NumberField")
        #expect(fields.subtracting(leaves).sorted() == [], "fields that are not numbers of the scenario")
    }

    @Test("every default lies in its valid range")
    func defaultsAreValid() {
        for row in Scenario.numberRows {
            #expect(row.valid.contains(row.defaultValue), "\(row.path): default \(row.defaultValue) outside \(row.valid)")
        }
        #expect(Scenario().validate().isEmpty)
    }

    @Test("a value just outside each range is refused with the field's path, and the range's ends are accepted")
    func rangesAreEnforced() throws {
        for row in Scenario.numberRows {
            for (value, accepted) in [(row.valid.lowerBound, true), (row.valid.upperBound, true),
                                      (row.valid.lowerBound - 1, false), (row.valid.upperBound + 1, false)] {
                let document = ScenarioLoader.setting(.number(value), at: row.path.split(separator: ".").map(String.init), in: .object([]))
                var issues: [ScenarioIssue] = []
                do {
                    _ = try ScenarioLoader.decode(JSONWriter.pretty(document), source: "t.json")
                } catch {
                    issues = error.issues.filter { $0.path == row.path }
                }
                if accepted {
                    // An end may still break a relation with another field (a maximum below a minimum).
                    let range = "from \(ParameterValidator.format(row.valid.lowerBound)) to \(ParameterValidator.format(row.valid.upperBound)),"
                    #expect(issues.allSatisfy { !$0.message.contains(range) },
                            "\(row.path) = \(value) refused: \(issues)")
                } else {
                    #expect(!issues.isEmpty, "\(row.path) = \(value) accepted")
                }
            }
        }
    }

    @Test("no doc comment of a scenario's or a built-in policy's number restates its default, valid range or plausible range: the NumberField and the initial value say them once")
    func docCommentsRestateNoRange() throws {
        let stated = try Self.docComments()
        var read = 0
        let policyKeys = PolicyRegistry.builtIn.definitions.flatMap { $0.parametersType.numberRows.map(\.path) }
        #expect(policyKeys.count >= 30, "the built-in policies declare \(policyKeys.count) numbers")
        for key in Set(Scenario.numberRows.map { String($0.path.split(separator: ".").last!) } + policyKeys).sorted() {
            for (file, text) in stated[key] ?? [] {
                read += 1
                if let restated = Self.restatement(in: text) {
                    Issue.record("\(file): the doc comment of \(key) restates \"\(restated)\"; its NumberField (and its initial value) says it")
                }
            }
        }
        #expect(read > 120, "only \(read) doc comments of scenario numbers found: the scan is broken")
        // The scan finds what the doc comments used to say (2026-11-29: 160 lines), so a pass is not the scan missing them.
        for restating in ["Most refresh launches per day. Default 6; range 1–24. [O]/[Inf]",
                          "Default 0.55; plausible 0.40–0.75; valid: 0–1.", "Defaults 30 / 10; valid 0.1–5,000.",
                          "Minutes to charge. Valid 1–600.", "Longest top-up, in minutes. Default 60; valid ≥ the shortest, ≤ 600."] {
            #expect(Self.restatement(in: restating) != nil, "the scan misses \"\(restating)\"")
        }
        #expect(Self.restatement(in: "With the defaults an app used 1.5 times a day gets about 4 a day, calibrated to the observed 3–4 a day [O].") == nil)
    }

    /// The first phrase of `text` that states a default value or a valid, plausible or other range
    /// of numbers, or `nil`.
    static func restatement(in text: String) -> String? {
        if let match = text.firstMatch(of: /\bDefaults? -?[0-9][0-9,.]*/) { return String(match.0) }
        if let match = text.firstMatch(of: /(?i)\b(valid|plausible|range):? *(-?[0-9][0-9,.]*\s*(–|-|to)\s*-?[0-9]|[≥≤±])/) {
            return String(match.0)
        }
        return nil
    }

    /// Each property's doc comment, by property name (a name in two sections has two).
    static func docComments() throws -> [String: [(file: String, text: String)]] {
        var stated: [String: [(file: String, text: String)]] = [:]
        let declaration = /^(public |package )?(var|let) ([A-Za-z0-9]+) *[:=]/
        let files = FileManager.default.enumerator(at: root.appendingPathComponent("Sources/BackgroundSim"), includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            var comment = ""
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("///") { comment += " " + trimmed.dropFirst(3); continue }
                if !comment.isEmpty, let match = trimmed.firstMatch(of: declaration) {
                    stated[String(match.3), default: []].append((file.lastPathComponent, comment))
                }
                comment = ""
            }
        }
        return stated
    }

    @Test("every number of the iOS model that is our inference or observed, not Apple's, has a plausible range; every plausible range lies inside its valid range and around its default; --model-uncertainty draws the iOS model's alone")
    func plausibleRanges() throws {
        let stated = try Self.docComments()
        // The model's own step, not a fact about iOS: its chances are per evaluation.
        let notFacts: Set<String> = ["system.heuristic.evaluationMinutes"]
        var ranged = 0
        for row in Scenario.numberRows {
            let key = String(row.path.split(separator: ".").last!)
            let comments = (stated[key] ?? []).map(\.text)
            let tagged = comments.contains { ($0.contains("[Inf]") || $0.contains("[O]")) && !$0.contains("[A]") }
            if row.isIOSModel && tagged && !notFacts.contains(row.path) {
                #expect(row.plausible != nil, "\(row.path) is [Inf] or [O] with no plausible range")
            }
            guard let plausible = row.plausible else { continue }
            ranged += 1
            #expect(row.valid.contains(plausible.lowerBound) && row.valid.contains(plausible.upperBound), "\(row.path): \(plausible) outside \(row.valid)")
            #expect(plausible.contains(row.defaultValue), "\(row.path): default \(row.defaultValue) outside \(plausible)")
            #expect(plausible.lowerBound < plausible.upperBound, "\(row.path): \(plausible) is a point")
        }
        #expect(ranged >= 70)
        #expect(Scenario.numberRows.allSatisfy { $0.isIOSModel == $0.path.hasPrefix("system.") })
        #expect(ModelUncertainty.standard.parameters.map(\.path) == Scenario.numberRows.filter { $0.isIOSModel && $0.plausible != nil }.map(\.path))
        #expect(ModelUncertainty.standard.parameters.count >= 35)
    }

    @Test("docs/POLICIES.md prints every built-in policy's numbers with their unit, default and valid range as the code has them, and its policies table restates none")
    func policiesTableIsCurrent() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/POLICIES.md"), encoding: .utf8)
        let table = PolicyRegistry.builtIn.numberTable
        #expect(text.contains(table), "replace the table under \"Policy numbers\" with:\n\(table)")
        let policies = text.split(separator: "\n").filter { $0.hasPrefix("| `") && !table.contains($0) }
        for line in policies {
            if let match = line.firstMatch(of: /` \(-?[0-9][0-9,.]*, [^)]*[0-9]\)/) {
                Issue.record("docs/POLICIES.md restates \"\(match.0)\" in: \(line)")
            }
        }
    }

    @Test("docs/SCENARIOS.md prints every number's unit, default and valid range as the code has them")
    func scenariosTableIsCurrent() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/SCENARIOS.md"), encoding: .utf8)
        #expect(text.contains(Scenario.numberTable), "replace the table under \"Every number\" with:\n\(Scenario.numberTable)")
    }
}
