/// A policy's own parameters: what a scenario's `app.policy.parameters` holds for it.
///
/// Every field has a default (``init()``), so a scenario names only what differs; the scenario
/// loader decodes the object with the policy's registered type, reporting unknown keys and wrong
/// types with their paths, then checks each number against its valid range (``numberFields``)
/// and calls ``validate(_:)`` for what no single range says. Sweeps and what-ifs vary a field by
/// its path (`app.policy.parameters.meanDelayMinutes`), exactly as they vary the device's.
///
///     struct UploadParameters: PolicyParameters {
///         /// Earliest begin of the upload task after leaving the app, in minutes.
///         var delayMinutes: Double = 15
///
///         static let numberFields = [NumberField<Self>("delayMinutes", \.delayMinutes, valid: 0...1_440)]
///     }
///
/// A number's valid range is said there once; its doc comment gives its meaning and source, and
/// its default is its initial value.
public protocol PolicyParameters: Codable, Sendable, Equatable {
    /// The defaults.
    init()

    /// The parameters' numbers and the values each accepts, declared once: checked before
    /// ``validate(_:)``, and what the docs' tables print. Empty by default.
    static var numberFields: [NumberField<Self>] { get }

    /// Reports what no single number's range says — an empty identifier, a maximum below its
    /// minimum — with paths relative to the parameters object (each number's own range is
    /// ``numberFields``'). It must not trap, whatever the values (NaN, infinities, huge
    /// numbers). Nothing by default.
    func validate(_ validator: inout ParameterValidator)

    /// The task identifiers these parameters name, when the parameters choose them (a
    /// recipe's `identifier`): a scenario file that names the policy and not
    /// `app.permittedIdentifiers` gets these, as its Info.plist would list them. `nil` (the
    /// default) leaves it to the definition's ``PolicyDefinition/taskIdentifiers``.
    var taskIdentifiers: [String]? { get }

    /// What the policy with these parameters promises about its requests and runs
    /// (``PolicyPromise``): `bgsim check` holds every run to each. Empty by default.
    var promises: [PolicyPromise] { get }
}

extension PolicyParameters {
    public static var numberFields: [NumberField<Self>] { [] }
    public func validate(_ validator: inout ParameterValidator) {}
    public var taskIdentifiers: [String]? { nil }
    public var promises: [PolicyPromise] { [] }

    /// Whether `other` is a value of the same type, equal to this one.
    func isEqual(to other: any PolicyParameters) -> Bool {
        (other as? Self) == self
    }

    /// Every value outside its valid range, with paths relative to the parameters object.
    func issues() -> [ScenarioIssue] {
        var validator = ParameterValidator()
        NumberField.check(Self.numberFields, in: self, &validator)
        validate(&validator)
        return validator.issues
    }
}

/// The parameters of a policy that has none.
public struct NoParameters: PolicyParameters {
    public init() {}
}
