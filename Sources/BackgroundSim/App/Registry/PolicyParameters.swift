/// A policy's own parameters: what a scenario's `app.policy.parameters` holds for it.
///
/// Every field has a default (``init()``), so a scenario names only what differs; the scenario
/// loader decodes the object with the policy's registered type, reporting unknown keys and wrong
/// types with their paths, and then calls ``validate(_:)``. Sweeps and what-ifs vary a field by
/// its path (`app.policy.parameters.meanDelayMinutes`), exactly as they vary the device's.
///
///     struct UploadParameters: PolicyParameters {
///         /// Earliest begin of the upload task after leaving the app, in minutes. Default 15; valid 0–1,440.
///         var delayMinutes: Double = 15
///
///         func validate(_ v: inout ParameterValidator) {
///             v.check(delayMinutes, 0...1_440, "delayMinutes")
///         }
///     }
public protocol PolicyParameters: Codable, Sendable, Equatable {
    /// The defaults.
    init()

    /// Reports every value outside its valid range, with its path relative to the parameters
    /// object. It must not trap, whatever the values (NaN, infinities, huge numbers).
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
    public var taskIdentifiers: [String]? { nil }
    public var promises: [PolicyPromise] { [] }

    /// Whether `other` is a value of the same type, equal to this one.
    func isEqual(to other: any PolicyParameters) -> Bool {
        (other as? Self) == self
    }

    /// Every value outside its valid range, with paths relative to the parameters object.
    func issues() -> [ScenarioIssue] {
        var validator = ParameterValidator()
        validate(&validator)
        return validator.issues
    }
}

/// The parameters of a policy that has none.
public struct NoParameters: PolicyParameters {
    public init() {}
    public func validate(_ validator: inout ParameterValidator) {}
}
