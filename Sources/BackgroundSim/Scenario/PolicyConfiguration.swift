import Foundation

/// The app's background policy in a scenario: a registered name and that policy's parameters.
///
/// In a scenario file it is `app.policy`, an object with the policy's `name` and, optionally,
/// the `parameters` that differ from the policy's defaults (a bare string is the name with
/// default parameters):
///
///     "app": { "policy": { "name": "coverdrop-designed", "parameters": { "meanDelayMinutes": 10 } } }
///
/// In Swift:
///
///     var parameters = CoverDropDesignedParameters()
///     parameters.meanDelayMinutes = 10
///     scenario.app.policy = PolicyConfiguration(name: "coverdrop-designed", parameters: parameters)
///
/// A team's own policy goes in with its definition, and every run, comparison, sweep and what-if
/// of the scenario then makes that policy, whether or not a registry knows its name:
///
///     scenario.app.policy = PolicyConfiguration(upload, parameters: UploadParameters())
public struct PolicyConfiguration: Codable, Sendable, Equatable {
    /// The policy's name in the ``PolicyRegistry`` (`bgsim presets` lists the built-in ones).
    public var name: String
    /// The policy's parameters: a value of the type its definition declares.
    public var parameters: any PolicyParameters
    /// The policy's definition, when the configuration carries it: one given in Swift, or the
    /// one a scenario file's name resolved to. `nil` looks `name` up in the registry at hand.
    public private(set) var definition: PolicyDefinition?

    /// The policy `name` with `parameters`.
    public init(name: String, parameters: any PolicyParameters) {
        self.name = name
        self.parameters = parameters
    }

    /// The policy `definition` with `parameters` (its defaults if `nil`).
    public init(_ definition: PolicyDefinition, parameters: (any PolicyParameters)? = nil) {
        self.name = definition.name
        self.parameters = parameters ?? definition.defaultParameters
        self.definition = definition
    }

    /// The definition this configuration runs: the one it carries, else `name`'s in `policies`.
    package func resolved(in policies: PolicyRegistry) -> PolicyDefinition? {
        definition ?? policies.definition(named: name)
    }

    /// The built-in policy `name` with its default parameters (``NoParameters`` for a name that
    /// is not registered, which validation reports).
    public init(name: String) {
        let definition = PolicyRegistry.builtIn.definition(named: name)
        self.init(name: definition?.name ?? name, parameters: definition?.defaultParameters ?? NoParameters())
    }

    /// No app code.
    public static let none = PolicyConfiguration(name: "none", parameters: NoParameters())

    /// The parameters as `type`, if they are of that type.
    public func parameters<Parameters: PolicyParameters>(as type: Parameters.Type) -> Parameters? {
        parameters as? Parameters
    }

    /// The same policy with its parameters at their defaults.
    package var withDefaultParameters: PolicyConfiguration {
        var configuration = self
        configuration.parameters = type(of: parameters).init()
        return configuration
    }

    public static func == (lhs: PolicyConfiguration, rhs: PolicyConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.parameters.isEqual(to: rhs.parameters)
    }

    // MARK: Coding

    enum CodingKeys: String, CodingKey {
        case name, parameters
    }

    /// Decodes the parameters with the type the policy's definition declares, in the registry of
    /// the decoder's ``CodingUserInfoKey/policyRegistry`` (``PolicyRegistry/builtIn`` if none).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let written = try container.decode(String.self, forKey: .name)
        let registry = decoder.userInfo[.policyRegistry] as? PolicyRegistry ?? .builtIn
        guard let definition = registry.definition(named: written) else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: container,
                                                   debugDescription: registry.unknownPolicyMessage(written))
        }
        name = definition.name
        parameters = container.contains(.parameters)
            ? try definition.parametersType.init(from: container.superDecoder(forKey: .parameters))
            : definition.defaultParameters
        self.definition = definition
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try parameters.encode(to: container.superEncoder(forKey: .parameters))
    }
}

extension CodingUserInfoKey {
    /// The ``PolicyRegistry`` a decoder resolves `app.policy` names in.
    public static let policyRegistry = CodingUserInfoKey(rawValue: "BackgroundSim.policyRegistry")!
}
