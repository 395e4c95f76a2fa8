/// A scenario value chosen by name from a fixed set (`"daily"`, `"iPhone 15"`); decoding an
/// unknown name suggests the nearest known one and lists them all.
protocol NamedChoice: RawRepresentable, CaseIterable, Codable where RawValue == String {}

extension NamedChoice {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            let known = Self.allCases.map(\.rawValue)
            let names = known.map { "\"\($0)\"" }.joined(separator: ", ")
            let suggestion = ScenarioLoader.closest(to: text, among: known).map { "; did you mean \"\($0)\"?" } ?? ""
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected one of \(names), got \"\(text)\"\(suggestion)")
        }
        self = value
    }
}

/// A scenario value written as a formatted string (`"23:30"`, `"2026-01-05"`).
protocol FormattedString: Codable, CustomStringConvertible {
    /// Parses the string form; `nil` if it is malformed.
    init?(parsing text: String)
    /// What the format looks like, for error messages: `a time of day as "HH:MM" …`.
    static var formatDescription: String { get }
}

extension FormattedString {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.formatDescription), got \"\(text)\"")
        }
        self = value
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
