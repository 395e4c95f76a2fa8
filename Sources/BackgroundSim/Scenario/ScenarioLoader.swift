import Foundation

/// Reads scenario documents: parses the JSON, rejects unknown keys and wrong types, fills in
/// defaults, and checks every value's range.
///
/// Every problem is reported with the field's path and what was expected, and all problems are
/// reported at once:
///
///     heavy.json: user.sesionsPerDay: unknown key; did you mean "sessionsPerDay"?
///     heavy.json: device.capacityMilliampHours: expected a number from 500 to 10000, got 90000
public enum ScenarioLoader {
    /// Loads the scenario file at `path`.
    ///
    /// - Parameter policies: The registry `app.policy` names a policy in.
    public static func load(path: String, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        try decode(try readText(path: path), source: path, policies: policies)
    }

    /// The text of the file at `path` (`-` for standard input), or an error naming it.
    ///
    /// - Parameter maximumBytes: A larger file is refused before it is read: by default the
    ///   JSON parser's limit, for a JSON document; `nil` for none (a field log).
    package static func readText(path: String, maximumBytes: Int? = JSONParser.maximumBytes) throws(ScenarioError) -> String {
        if path == "-" {
            let data = FileHandle.standardInput.readDataToEndOfFile()
            guard let text = String(data: data, encoding: .utf8) else {
                throw ScenarioError(source: "standard input", issues: [ScenarioIssue(path: "", message: "expected UTF-8 text")])
            }
            return TextInput.withoutByteOrderMark(text)
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "cannot read the file: it does not exist")])
        }
        guard !isDirectory.boolValue else {
            throw ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "cannot read the file: it is a directory")])
        }
        // Refused before reading: a FIFO or device would block or never end, and a file over the
        // parser's limit would be held whole for nothing.
        let attributes = try? FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: path).resolvingSymlinksInPath().path)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
            throw ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "cannot read the file: it is not a regular file (a pipe, socket or device)")])
        }
        if let maximumBytes, let size = (attributes?[.size] as? NSNumber)?.intValue, size > maximumBytes {
            throw ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "the document is larger than \(maximumBytes >> 20) MiB (\(size) bytes)")])
        }
        do {
            return TextInput.withoutByteOrderMark(try String(contentsOfFile: path, encoding: .utf8))
        } catch {
            throw ScenarioError(source: path, issues: [ScenarioIssue(path: "", message: "cannot read the file as UTF-8 text (\(error.localizedDescription))")])
        }
    }

    /// Decodes a scenario from JSON text; `source` names it in errors.
    ///
    /// - Parameter policies: The registry `app.policy` names a policy in; its parameters are
    ///   checked against that policy's.
    public static func decode(_ text: String, source: String, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(text)
        } catch {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "not valid JSON: \(error)")])
        }
        return try decode(document: parsed, source: source, policies: policies)
    }

    /// `base` with the scenario fragment in `path` laid over it (``overlay(_:source:over:policies:)``).
    public static func overlay(path: String, over base: Scenario, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        try overlay(readText(path: path), source: path, over: base, policies: policies)
    }

    /// `base` with a scenario fragment (JSON text; `source` names it in errors) laid over it:
    /// objects merge member by member, a value (a number, a string, an array) replaces the
    /// base's, and `null` leaves it. The base keeps its `name` and `description`. A fragment that
    /// names another policy (`app.policy.name`) starts that policy's parameters from its own
    /// defaults, not the base's. The result is validated as a whole, and problems name the
    /// fragment.
    public static func overlay(_ text: String, source: String, over base: Scenario,
                               policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> Scenario {
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse(text)
        } catch {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "not valid JSON: \(error)")])
        }
        guard case .object(let members) = withPolicyObject(try DocumentSeal.opened(parsed, source: source)) else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "expected an object ({ … }) at the top level, got \(parsed.kindDescription)")])
        }
        let fragment = JSONValue.object(members.filter { $0.key != "name" && $0.key != "description" })
        var baseDocument = document(of: base)
        if case .string(let name)? = fragment["app"]?["policy"]?["name"], name != base.app.policy.name {
            baseDocument = setting(.object([]), at: ["app", "policy", "parameters"], in: baseDocument)
        }
        var result = try decode(document: merge(fragment, over: baseDocument), source: source, policies: policies)
        result.name = base.name
        result.description = base.description
        return result
    }

    /// Decodes a scenario from a parsed JSON document; `source` names it in errors.
    static func decode(document sealed: JSONValue, source: String, policies: PolicyRegistry) throws(ScenarioError) -> Scenario {
        let parsed = try DocumentSeal.opened(sealed, source: source)
        guard case .object = parsed else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "expected an object ({ … }) at the top level, got \(parsed.kindDescription)")])
        }
        var issues: [ScenarioIssue] = []
        let document = upgraded(parsed, issues: &issues)
        let policy = policyDefinition(in: document, policies: policies, issues: &issues)
        checkShape(document, against: schema(for: policy), path: "", issues: &issues, integerFields: integerFields(for: policy))

        var fallback = defaults
        if let policy {
            fallback = setting(Self.document(of: policy.defaultParameters), at: ["app", "policy", "parameters"], in: fallback)
        }
        var merged = merge(document, over: fallback)
        // Decoded even after shape problems (unknown keys are ignored), so that every problem is
        // reported at once: a value the decoder refuses (a misspelt case name) is reported and
        // put back to its default, and decoding goes on, so range problems elsewhere still show.
        var decoder = JSONValueDecoder()
        decoder.userInfo[.policyRegistry] = policies
        var decoded: Scenario?
        for _ in 0..<Self.maximumRepairs {
            do {
                decoded = try decoder.decode(Scenario.self, from: merged)
                break
            } catch let error as DecodingError {
                let found = issue(from: error)
                // A value of the wrong kind is already reported by the shape check.
                if !issues.contains(where: { $0.path == found.path || found.path.hasPrefix($0.path + ".") || found.path.hasPrefix($0.path + "[") }) {
                    issues.append(found)
                }
                guard let repaired = repairing(error, in: merged, from: fallback) else { break }
                merged = repaired
            } catch {
                issues.append(ScenarioIssue(path: "", message: "\(error)"))
                break
            }
        }
        guard var decoded else {
            throw ScenarioError(source: source, issues: issues.isEmpty ? [ScenarioIssue(path: "", message: "cannot be read as a scenario")] : issues)
        }
        // The identifiers a named policy declares are those its Info.plist would list — its
        // parameters' where they choose them (a recipe's), else its definition's — unless the
        // file says otherwise (`[]` models a missing entry).
        if let policy, document["app"]?["permittedIdentifiers"] == nil {
            decoded.app.permittedIdentifiers = decoded.app.policy.parameters.taskIdentifiers ?? policy.taskIdentifiers
        }
        if let policy, document["app"]?["metrics"] == nil { decoded.app.metrics = policy.metrics }
        issues += decoded.validate(policies: policies)
        guard issues.isEmpty else { throw ScenarioError(source: source, issues: issues) }
        // What `bgsim scenario` prints of it reads back as the same scenario (debug builds).
        assert((try? decoder.decode(Scenario.self, from: Self.document(of: decoded))) == decoded,
               "ScenarioLoader: \(source) does not survive a round trip through its document")
        return decoded
    }

    /// How many refused values one decoding puts back to their defaults before it stops.
    static let maximumRepairs = 64

    /// `document` with the value a decoding error refused replaced by the default at the
    /// nearest enclosing object path (an array and everything in it when the error is inside
    /// one); `nil` when no default covers it or nothing would change.
    static func repairing(_ error: DecodingError, in document: JSONValue, from fallback: JSONValue) -> JSONValue? {
        let codingPath: [CodingKey]
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            codingPath = context.codingPath
        @unknown default:
            return nil
        }
        var keys = Array(codingPath.prefix { $0.intValue == nil }.map(\.stringValue))
        while !keys.isEmpty {
            if let replacement = value(at: keys, in: fallback) {
                let repaired = setting(replacement, at: keys, in: document)
                return repaired == document ? nil : repaired
            }
            keys.removeLast()
        }
        return nil
    }

    // MARK: Policies

    /// `document` in today's format: a bare policy name becomes `{"name": …}`; the removed
    /// `policies` section is reported with how to move its values.
    static func upgraded(_ document: JSONValue, issues: inout [ScenarioIssue]) -> JSONValue {
        var result = withPolicyObject(document)
        if case .object(let sections)? = document["policies"] {
            for section in sections {
                let name = FormerNames.policy(forSection: section.key) ?? "the policy's name"
                issues.append(ScenarioIssue(path: "policies.\(section.key)", message: """
                    the policies section was removed: a policy's parameters now belong to it; move these values to \
                    "app": {"policy": {"name": "\(name)", "parameters": {…}}} (in sweeps, paths become app.policy.parameters.…)
                    """))
            }
            if sections.isEmpty { issues.append(ScenarioIssue(path: "policies", message: "the policies section was removed; delete it")) }
        } else if document["policies"] != nil {
            issues.append(ScenarioIssue(path: "policies", message: "the policies section was removed; a policy's parameters go in app.policy.parameters"))
        }
        if case .object(let members) = result, document["policies"] != nil {
            result = .object(members.filter { $0.key != "policies" })
        }
        return result
    }

    /// `document` with a bare `app.policy` name written as `{"name": …}`, so that settings under
    /// `app.policy.parameters` (a sweep's axes) have an object to go in.
    package static func withPolicyObject(_ document: JSONValue) -> JSONValue {
        guard case .string(let name)? = document["app"]?["policy"] else { return document }
        return setting(.object([("name", .string(name))]), at: ["app", "policy"], in: document)
    }

    /// The definition of the policy `document` names, if the name is a string; an unknown name
    /// is reported.
    static func policyDefinition(in document: JSONValue, policies: PolicyRegistry, issues: inout [ScenarioIssue]) -> PolicyDefinition? {
        guard case .string(let name)? = document["app"]?["policy"]?["name"] else { return nil }
        guard let definition = policies.definition(named: name) else {
            issues.append(ScenarioIssue(path: "app.policy.name", message: policies.unknownPolicyMessage(name)))
            return nil
        }
        return definition
    }

    /// The schema with `policy`'s parameters in `app.policy.parameters` (none if `nil`).
    static func schema(for policy: PolicyDefinition?) -> JSONValue {
        guard let policy else { return schema }
        return setting(document(of: policy.defaultParameters), at: ["app", "policy", "parameters"], in: schema)
    }

    /// The scenario's integer fields and those of `policy`'s parameters.
    static func integerFields(for policy: PolicyDefinition?) -> Set<String> {
        guard let policy else { return integerFields }
        return integerFields.union(integerFieldPaths(of: policy.defaultParameters, prefix: "app.policy.parameters"))
    }

    /// `document` with `value` at `path`, creating objects on the way.
    package static func setting(_ value: JSONValue, at path: [String], in document: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        var members: [(key: String, value: JSONValue)] = []
        if case .object(let existing) = document { members = existing }
        let child = members.first { $0.key == key }?.value ?? .object([])
        let updated = setting(value, at: Array(path.dropFirst()), in: child)
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = updated
        } else {
            members.append((key, updated))
        }
        return .object(members)
    }

    /// The value at `path` in `document`, or `nil` where there is none.
    package static func value(at path: [String], in document: JSONValue) -> JSONValue? {
        guard let key = path.first else { return document }
        guard case .object(let members) = document, let child = members.first(where: { $0.key == key })?.value else { return nil }
        return value(at: Array(path.dropFirst()), in: child)
    }

    /// The scenario as a JSON document with every parameter, in a stable order.
    package static func document(of scenario: Scenario) -> JSONValue {
        document(of: scenario as any Encodable)
    }

    /// `value` encoded as a JSON document, keys sorted.
    static func document(of value: any Encodable) -> JSONValue {
        do {
            return try JSONValueEncoder.encode(value)
        } catch {
            // Plain value types with finite numbers always encode; say what did not, should one ever fail.
            return .object([("error", .string("cannot encode \(type(of: value)): \(error)"))])
        }
    }

    // MARK: Shape

    /// Every parameter at its default.
    static let defaults = document(of: Scenario())

    /// Every key a scenario may have: the defaults, with optional fields filled in and one
    /// element in each array, so that elements can be checked too.
    static let schema: JSONValue = {
        var template = Scenario()
        template.device.capacityMilliampHours = 0
        template.device.nominalVolts = 0
        template.user.app.absences = [AppAbsence(startDay: 0, days: 1)]
        template.clock.jumps = [ClockJump(atHours: 0, byMinutes: 0)]
        template.app.permittedIdentifiers = ["identifier"]
        template.faults = FaultPlan.example
        template.debugger = DebuggerCommands.example
        template.pushes = ServerPushes.example
        template.system.replay = ReplayedLaunches.example
        template.plausible = [PlausibleRange.example]
        return document(of: template)
    }()

    /// The paths of the scenario's integer fields (array elements written `[]`), found by
    /// reflection, so that a fraction there is reported with its path; `JSONDecoder` would only
    /// say the document "was not valid JSON".
    static let integerFields: Set<String> = {
        var template = Scenario()
        template.user.app.absences = [AppAbsence(startDay: 0, days: 1)]
        template.clock.jumps = [ClockJump(atHours: 0, byMinutes: 0)]
        template.faults = FaultPlan.example
        return integerFieldPaths(of: template, prefix: "")
    }()

    /// The paths of `template`'s integer fields under `prefix`, by reflection (array elements
    /// written `[]`; only non-empty arrays are seen).
    static func integerFieldPaths(of template: Any, prefix: String) -> Set<String> {
        var paths: Set<String> = []
        func visit(_ value: Any, _ path: String) {
            let mirror = Mirror(reflecting: value)
            if value is Int {
                paths.insert(path)
            } else if mirror.displayStyle == .struct {
                for child in mirror.children {
                    guard let label = child.label else { continue }
                    visit(child.value, path.isEmpty ? label : "\(path).\(label)")
                }
            } else if mirror.displayStyle == .collection, let first = mirror.children.first {
                visit(first.value, path + "[]")
            }
        }
        visit(template, prefix)
        return paths
    }

    /// `path` with array indices replaced by `[]`, to look up in ``integerFields``.
    static func genericPath(_ path: String) -> String {
        var result = ""
        var inIndex = false
        for character in path {
            if character == "[" { inIndex = true; result += "[]" } else if character == "]" { inIndex = false } else if !inIndex { result.append(character) }
        }
        return result
    }

    /// How many problems get a suggestion (the nearest key): more than any report shows.
    static let suggestedProblems = 100

    /// Objects whose keys are the scenario's own names, not fields (``LaunchEnvironment``'s
    /// variables and defaults): any key is known; decoding checks the values.
    static let namedEntryObjects: Set<String> = ["app.launch.environment", "app.launch.defaults"]

    /// Records unknown keys and values of the wrong kind.
    static func checkShape(_ value: JSONValue, against expected: JSONValue, path: String, issues: inout [ScenarioIssue],
                           integerFields: Set<String> = integerFields) {
        checkShape(value, against: expected, path: path, generic: genericPath(path), issues: &issues, integerFields: integerFields)
    }

    /// ``checkShape(_:against:path:issues:integerFields:)`` with `path`'s ``genericPath(_:)``
    /// carried down, so that it is built once per level, not again from the whole path at each
    /// number: a long array is checked in linear time.
    private static func checkShape(_ value: JSONValue, against expected: JSONValue, path: String, generic: String,
                                   issues: inout [ScenarioIssue], integerFields: Set<String>) {
        switch (value, expected) {
        case (.null, _):
            return  // null means "the default"
        case (.object, .object) where namedEntryObjects.contains(path):
            return
        case let (.object(members), .object(known)):
            let knownKeys = known.map(\.key)
            for member in members {
                let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
                guard let expectedValue = known.first(where: { $0.key == member.key })?.value else {
                    // A key no path could show plainly (empty, or with dots or spaces) is quoted.
                    // A key with invisible characters shows them escaped (TextInput.visible).
                    let visible = TextInput.visible(member.key)
                    let plain = !member.key.isEmpty && visible == member.key && !member.key.contains { $0 == "." || $0 == " " || $0 == "\"" }
                    let shown = plain ? member.key : visible != member.key ? "\"\(visible)\"" : JSONWriter.compact(.string(member.key))
                    let memberPath = path.isEmpty ? shown : "\(path).\(shown)"
                    // Only the first problems are shown: past them, a suggestion is not worth its search.
                    let suggestion = issues.count >= Self.suggestedProblems ? "" : FormerNames.keyHint(forPath: memberPath)
                        ?? closest(to: member.key, among: knownKeys).map { "; did you mean \"\($0)\"?" }
                        ?? misplaced(member.value, among: knownKeys, under: path)
                        ?? "; known keys here: \(knownKeys.joined(separator: ", "))"
                    issues.append(ScenarioIssue(path: memberPath, message: "unknown key" + suggestion))
                    continue
                }
                checkShape(member.value, against: expectedValue, path: memberPath, generic: generic.isEmpty ? member.key : "\(generic).\(member.key)",
                           issues: &issues, integerFields: integerFields)
            }
        case let (.array(elements), .array(template)):
            guard let elementTemplate = template.first else { return }
            let elementGeneric = generic + "[]"
            for (index, element) in elements.enumerated() {
                checkShape(element, against: elementTemplate, path: "\(path)[\(index)]", generic: elementGeneric, issues: &issues,
                           integerFields: integerFields)
            }
        case (.number(let number), .number):
            guard integerFields.contains(generic) else { return }
            if number != number.rounded() {
                issues.append(ScenarioIssue(path: path, message: "expected a whole number, got \(JSONWriter.format(number))"))
            } else if abs(number) > 9_007_199_254_740_992 {
                // Beyond 2⁵³ a JSON number is no longer exact, and beyond 2⁶³ no Int holds it.
                issues.append(ScenarioIssue(path: path, message: "expected a whole number of at most 2^53 in size, got \(JSONWriter.format(number))"))
            }
        case (.string, .string), (.bool, .bool):
            return
        default:
            issues.append(ScenarioIssue(path: path, message: "expected \(expected.kindDescription), got \(value.kindDescription)"))
        }
    }

    /// A suggestion for an unknown key whose object holds a key known here, as in
    /// `"device": {"battery": {"capacityMilliampHours": …}}`: "did you mean device.capacityMilliampHours?".
    static func misplaced(_ value: JSONValue, among knownKeys: [String], under path: String) -> String? {
        guard case .object(let members) = value else { return nil }
        for member in members {
            if let known = closest(to: member.key, among: knownKeys) {
                return "; did you mean \"\(path.isEmpty ? known : "\(path).\(known)")\" (one level up)?"
            }
        }
        return nil
    }

    /// `value` laid over `base`: objects merge member by member; anything else replaces.
    static func merge(_ value: JSONValue, over base: JSONValue) -> JSONValue {
        guard case .object(let members) = value, case .object(var merged) = base else { return value }
        // Keys found by a table, not a scan: a file of 200,000 unknown keys merges in linear time.
        var positions: [String: Int] = [:]
        for (index, member) in merged.enumerated() { positions[member.key] = index }
        for member in members {
            if case .null = member.value { continue }
            if let index = positions[member.key] {
                merged[index].value = merge(member.value, over: merged[index].value)
            } else {
                positions[member.key] = merged.count
                merged.append(member)
            }
        }
        return .object(merged)
    }

    /// The known key closest to `key` by edit distance, if it is close enough to be a typo.
    package static func closest(to key: String, among candidates: [String]) -> String? {
        let lowered = key.lowercased()
        let scored = candidates.map { ($0, editDistance(lowered, $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= Swift.max(2, key.count / 3) ? best.0 : nil
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...Swift.max(1, a.count) where !a.isEmpty {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...Swift.max(1, b.count) where !b.isEmpty {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }

    /// A decoding error as an issue with the field's path.
    static func issue(from error: DecodingError) -> ScenarioIssue {
        func path(_ codingPath: [CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .dataCorrupted(let context):
            return ScenarioIssue(path: path(context.codingPath), message: context.debugDescription)
        case .typeMismatch(let type, let context):
            let expected = type == Int.self ? "a whole number" : "\(type)"
            return ScenarioIssue(path: path(context.codingPath), message: "expected \(expected)")
        case .keyNotFound(let key, let context):
            return ScenarioIssue(path: path(context.codingPath + [key]), message: "this field is required")
        case .valueNotFound(_, let context):
            return ScenarioIssue(path: path(context.codingPath), message: "a value is required")
        @unknown default:
            return ScenarioIssue(path: "", message: "\(error)")
        }
    }
}

/// Why a scenario could not be used: the file and every problem found in it.
public struct ScenarioError: Error, Sendable, CustomStringConvertible {
    /// The file (or preset) the scenario came from.
    public var source: String
    /// The problems, each with its field path.
    public var issues: [ScenarioIssue]

    public init(source: String, issues: [ScenarioIssue]) {
        self.source = source
        self.issues = issues
    }

    /// One line per problem: `file: path: message`.
    public var description: String {
        issues.map { "\(source): \($0)" }.joined(separator: "\n")
    }
}
