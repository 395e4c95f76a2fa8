/// One problem with a scenario: the field it concerns and what was expected.
public struct ScenarioIssue: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field's path, such as `device.capacityMilliampHours` or `user.app.absences[0].days`;
    /// empty for the document as a whole.
    public var path: String
    /// What is wrong and what was expected.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
