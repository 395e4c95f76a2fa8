/// One number a scenario section or a policy's parameters hold, with the values validation
/// accepts: stated once, beside the properties, and read by validation and by the docs' tables
/// (docs/SCENARIOS.md's, docs/POLICIES.md's; tests hold the tables to it).
///
/// The rest of what a reader needs of the number is stated once too: its unit ends its name
/// (``unit``), its default is the property's initial value, its plausible range is here
/// (``plausible``), and its source is in the property's doc comment, which restates none of
/// these numbers (a test holds every doc comment to that).
///
///     static let numberFields: [NumberField<PushParameters>] = [
///         NumberField("burstWindowMinutes", \.burstWindowMinutes, valid: 1...1_440),
///         NumberField("runSeconds", \.runSeconds, valid: 1...30),
///     ]
public struct NumberField<Section>: Sendable {
    /// The number's key in its section: the last component of its path.
    public let key: String
    /// The values validation accepts.
    public let valid: ClosedRange<Double>
    /// For a number that is our inference [Inf] or observed in the field [O], the values we hold
    /// as plausible for real phones, users and iOS; `nil` for a number Apple states or a
    /// scenario's own choice. `--model-uncertainty` draws the iOS model's numbers from it
    /// (``ModelUncertainty``, ``Scenario/uncertainNumberRows``); a device's or a user's is what
    /// a team varies on purpose, in a sweep or a what-if, and is not drawn.
    public let plausible: ClosedRange<Double>?
    /// Whether the number is a whole number (an `Int` property).
    public let isWholeNumber: Bool
    /// The unit, for a key whose last word does not name it (`chargeMinutesTo50`).
    private let statedUnit: String?
    private let value: @Sendable (Section) -> Double

    /// A `Double` property; `unit` only where the key's last word does not name it.
    public init(_ key: String, _ value: @escaping @Sendable (Section) -> Double, valid: ClosedRange<Double>,
                 plausible: ClosedRange<Double>? = nil, unit: String? = nil) {
        self.key = key
        self.value = value
        self.valid = valid
        self.plausible = plausible
        isWholeNumber = false
        statedUnit = unit
    }

    /// An `Int` property.
    public init(_ key: String, _ value: @escaping @Sendable (Section) -> Int, valid: ClosedRange<Int>,
                 plausible: ClosedRange<Int>? = nil, unit: String? = nil) {
        self.key = key
        self.value = { Double(value($0)) }
        self.valid = Double(valid.lowerBound)...Double(valid.upperBound)
        self.plausible = plausible.map { Double($0.lowerBound)...Double($0.upperBound) }
        isWholeNumber = true
        statedUnit = unit
    }

    /// The number's value in `section`.
    public func value(in section: Section) -> Double { value(section) }

    /// Checks each of `fields` in `section` against its valid range, reporting a value outside
    /// it under the field's key.
    static func check(_ fields: [NumberField<Section>], in section: Section, _ v: inout ParameterValidator) {
        for field in fields {
            let value = field.value(in: section)
            if field.isWholeNumber {
                v.check(Int(value), Int(field.valid.lowerBound)...Int(field.valid.upperBound), field.key)
            } else {
                v.check(value, from: field.valid.lowerBound, to: field.valid.upperBound, field.key)
            }
        }
    }

    /// The unit the key's last word names (`…Seconds` is seconds): what docs/SCENARIOS.md prints.
    public var unit: String {
        if let statedUnit { return statedUnit }
        let units: [(suffix: String, unit: String)] = [
            ("Seconds", "s"), ("Minutes", "min"), ("Hours", "h"), ("Days", "days"), ("Percent", "%"), ("Watts", "W"),
            ("MilliwattsPerMbps", "mW per Mbps"), ("Mbps", "Mbit/s"), ("Kilobytes", "kB"), ("MegabytesPerDay", "MB/day"),
            ("JoulesPerDay", "J/day"), ("MilliampHours", "mAh"), ("Volts", "V"), ("PerDay", "1/day"), ("PerHour", "1/h"),
            ("PerAppSession", "1/session"), ("Probability", "probability"), ("Share", "share"), ("Factor", "factor"),
            ("Multiplier", "factor"), ("Sigma", "σ of the logarithm"), ("Fraction", "share"), ("Health", "share"),
        ]
        return units.first { key.hasSuffix($0.suffix) }?.unit ?? (isWholeNumber ? "count" : "number")
    }
}

/// A section of a scenario that validates itself: each of its numbers against its range
/// (``numberFields``), then what no single range expresses (``validateRelations(_:)``), with
/// paths relative to the section.
package protocol ScenarioSection {
    /// The section's numbers and their valid ranges.
    static var numberFields: [NumberField<Self>] { get }

    /// Checks what no single number's range expresses: relations between fields, lists, nested
    /// sections. Paths are relative to the section.
    func validateRelations(_ v: inout ParameterValidator)
}

extension ScenarioSection {
    package func validateRelations(_ v: inout ParameterValidator) {}

    /// Checks the section, reporting problems under `path` (`"user"`, `"system.push"`).
    package func validate(_ v: inout ParameterValidator, at path: String) {
        var section = ParameterValidator()
        NumberField.check(Self.numberFields, in: self, &section)
        validateRelations(&section)
        v.append(section.issues, under: path)
    }
}

/// A section's numbers with the path of the section, for the reference table.
package struct NumberRow: Sendable, Equatable {
    /// The number's full path: `system.heuristic.refreshRecencyDays`.
    package var path: String
    package var unit: String
    package var defaultValue: Double
    package var valid: ClosedRange<Double>
    /// What real phones, users or iOS plausibly have, for an inferred or observed number
    /// (``NumberField/plausible``).
    package var plausible: ClosedRange<Double>?
    package var isWholeNumber: Bool
    /// Whether the number is the iOS model's (a `system` section): one `--model-uncertainty`
    /// draws where it has a plausible range.
    package var isIOSModel: Bool
}

extension Scenario {
    /// Every number of a scenario's sections with its unit, default and valid range, in the
    /// order of docs/SCENARIOS.md's table (which a test holds to it).
    package static var numberRows: [NumberRow] {
        let defaults = Scenario()
        func rows<Section: ScenarioSection>(_ path: String, _ section: Section, isIOSModel: Bool = false) -> [NumberRow] {
            Section.numberFields.map {
                NumberRow(path: "\(path).\($0.key)", unit: $0.unit, defaultValue: $0.value(in: section), valid: $0.valid,
                          plausible: $0.plausible, isWholeNumber: $0.isWholeNumber, isIOSModel: isIOSModel)
            }
        }
        let s = defaults.system
        return rows("user", defaults.user) + rows("user.app", defaults.user.app)
            + rows("device", defaults.device) + rows("device.thermal", defaults.device.thermal)
            + rows("power", defaults.power) + rows("restarts", defaults.restarts) + rows("network", defaults.network)
            + rows("energy", defaults.energy) + rows("energy.lte", defaults.energy.lte) + rows("energy.wifi", defaults.energy.wifi)
            + rows("clock", defaults.clock)
            + rows("system", s, isIOSModel: true) + rows("system.heuristic", s.heuristic, isIOSModel: true)
            + rows("system.budget", s.budget, isIOSModel: true)
            + rows("system.continuedProcessing", s.continuedProcessing, isIOSModel: true)
            + rows("system.backgroundURLSession", s.backgroundURLSession, isIOSModel: true)
            + rows("system.push", s.push, isIOSModel: true) + rows("system.otherApps", s.otherApps, isIOSModel: true)
            + rows("work", defaults.work) + rows("pushes", defaults.pushes)
    }

    /// The iOS model's numbers with a plausible range: what `--model-uncertainty` draws
    /// (``ModelUncertainty/standard``) and what a scenario's `plausible` may narrow.
    package static var uncertainNumberRows: [NumberRow] {
        numberRows.filter { $0.isIOSModel && $0.plausible != nil }
    }

    /// ``numberRows`` as the Markdown table docs/SCENARIOS.md prints.
    package static var numberTable: String {
        (["| field | unit | default | valid | plausible |", "|---|---|---:|---|---|"]
            + numberRows.map { "| `\($0.path)` | \($0.unit) | \(NumberRow.format($0.defaultValue)) | \(NumberRow.format($0.valid)) | \(NumberRow.format($0.plausible)) |" })
            .joined(separator: "\n")
    }
}

extension NumberRow {
    /// `value` as the docs' tables print it: shortest round-trip digits, thousands grouped,
    /// a minus sign for negatives.
    package static func format(_ value: Double) -> String {
        let text = JSONWriter.format(value)
        guard let dot = text.firstIndex(of: "."), !text.contains("e") else { return grouped(text) }
        return grouped(String(text[..<dot])) + String(text[dot...])
    }

    /// `range` as "low–high", or nothing.
    package static func format(_ range: ClosedRange<Double>?) -> String {
        range.map { "\(format($0.lowerBound))–\(format($0.upperBound))" } ?? ""
    }

    private static func grouped(_ digits: String) -> String {
        let negative = digits.hasPrefix("-")
        var body = String(digits.drop { $0 == "-" })
        var result = ""
        while body.count > 3 {
            result = "," + body.suffix(3) + result
            body = String(body.dropLast(3))
        }
        return (negative ? "−" : "") + body + result
    }
}
