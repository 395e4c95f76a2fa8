@testable import BackgroundSim
import Foundation
import SimKernel
import Testing

/// Scenarios built in Swift with every numeric field set, one at a time, to values no file could
/// hold or no model could use — NaN, infinities, huge, tiny, negative, zero — reach the runner's
/// door. Each must run, or be refused with a ``ScenarioError`` naming the field; none may trap
/// (a trap would end this test process) or fail in any other way.
@Suite("Validation at every door")
struct ScenarioFuzzTests {
    /// A leaf of a scenario document: its path, and whether the field is an integer.
    struct NumericField: CustomStringConvertible {
        var path: [PathComponent]
        var isInteger: Bool
        var description: String { ScenarioFuzzTests.text(of: path) }
    }

    enum PathComponent {
        case key(String)
        case index(Int)
    }

    /// Every parameter in a scenario whose arrays hold one element each and whose optional
    /// fields are set, all to valid values; with `policy`'s parameters.
    static func base(policy: PolicyDefinition) -> Scenario {
        var scenario = Scenario()
        scenario.device.capacityMilliampHours = 3_349
        scenario.device.nominalVolts = 3.87
        scenario.user.app.absences = [AppAbsence(startDay: 0, days: 1)]
        scenario.clock.jumps = [ClockJump(atHours: 1, byMinutes: 30)]
        scenario.faults = FaultPlan.example
        scenario.app.policy = PolicyConfiguration(name: policy.name, parameters: policy.defaultParameters)
        return scenario
    }

    static func text(of path: [PathComponent]) -> String {
        var text = ""
        for component in path {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// The numeric leaves of `document`.
    static func numericFields(of document: JSONValue, integerPaths: Set<String>) -> [NumericField] {
        var fields: [NumericField] = []
        func visit(_ value: JSONValue, _ path: [PathComponent]) {
            switch value {
            case .number:
                fields.append(NumericField(path: path, isInteger: integerPaths.contains(ScenarioLoader.genericPath(text(of: path)))))
            case .object(let members):
                for member in members { visit(member.value, path + [.key(member.key)]) }
            case .array(let elements):
                for (index, element) in elements.enumerated() { visit(element, path + [.index(index)]) }
            default:
                break
            }
        }
        visit(document, [])
        return fields
    }

    /// `document` with `value` at `path`.
    static func setting(_ value: JSONValue, at path: ArraySlice<PathComponent>, in document: JSONValue) -> JSONValue {
        guard let first = path.first else { return value }
        switch (first, document) {
        case (.key(let key), .object(var members)):
            guard let index = members.firstIndex(where: { $0.key == key }) else { return document }
            members[index].value = setting(value, at: path.dropFirst(), in: members[index].value)
            return .object(members)
        case (.index(let index), .array(var elements)):
            elements[index] = setting(value, at: path.dropFirst(), in: elements[index])
            return .array(elements)
        default:
            return document
        }
    }

    /// Decodes a scenario that may hold NaN and infinities (written as strings), as Swift code
    /// could build one.
    static func decode(_ document: JSONValue) throws -> Scenario {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(Scenario.self, from: Data(JSONWriter.compact(document).utf8))
    }

    /// Whether `value` holds a number anywhere (a policy whose parameters have none has nothing to fuzz).
    static func hasNumbers(_ value: JSONValue) -> Bool {
        switch value {
        case .number: true
        case .object(let members): members.contains { hasNumbers($0.value) }
        case .array(let elements): elements.contains { hasNumbers($0) }
        default: false
        }
    }

    static let doubles: [JSONValue] = [.string("nan"), .string("inf"), .string("-inf"), .number(1e300), .number(-1e300),
                                       .number(-1), .number(0), .number(1e-300)]
    static let integers: [JSONValue] = [.number(-1), .number(0), .number(9_007_199_254_740_992), .number(-9_007_199_254_740_992)]

    @Test("every numeric field of every policy's scenario, at every extreme: a run or a ScenarioError naming it, never a trap",
          arguments: PolicyRegistry.builtIn.definitions.filter { $0.name == "none" || ScenarioFuzzTests.hasNumbers(ScenarioLoader.document(of: $0.defaultParameters)) }.map(\.name))
    func extremes(policyName: String) throws {
        let policy = try #require(PolicyRegistry.builtIn.definition(named: policyName))
        let base = Self.base(policy: policy)
        try base.requireValid()
        let document = ScenarioLoader.document(of: base)
        let integerPaths = ScenarioLoader.integerFields(for: policy)
        // The scenario's own fields are fuzzed once, with the first policy; each policy adds its parameters.
        let fields = Self.numericFields(of: document, integerPaths: integerPaths).filter { field in
            let isParameter = field.description.hasPrefix("app.policy.parameters")
            return isParameter || policyName == PolicyRegistry.builtIn.definitions[0].name
        }
        #expect(fields.count >= (policyName == "none" ? 150 : 1), "\(fields.count) numeric fields")
        var refused = 0
        for field in fields {
            for value in field.isInteger ? Self.integers : Self.doubles {
                let scenario = try Self.decode(Self.setting(value, at: field.path[...], in: document))
                do {
                    _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 1)
                    if case .string = value { Issue.record("\(field) = \(value) ran") }
                } catch let error as ScenarioError {
                    refused += 1
                    #expect(!error.issues.isEmpty)
                    // NaN and infinities are out of every range: the field itself is named. (A finite
                    // value may be refused for what it does to another field's range instead.)
                    if case .string = value {
                        #expect(error.issues.contains { $0.path == field.description }, "\(field) = \(value): \(error)")
                    }
                } catch {
                    Issue.record("\(field) = \(value): \(error)")
                }
            }
        }
        #expect(refused > 0)
    }
}
