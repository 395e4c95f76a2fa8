/// The policies a scenario may name in `app.policy`, by name: the built-in ones, and any a user
/// adds.
///
///     var policies = PolicyRegistry.builtIn
///     try policies.register(upload)   // a PolicyDefinition
///
/// Scenario decoding, validation and runs take a registry (``builtIn`` by default).
public struct PolicyRegistry: Sendable {
    /// The policies, in the order `bgsim presets` lists them.
    public private(set) var definitions: [PolicyDefinition]

    /// A registry of `definitions`, which must have distinct names.
    public init(_ definitions: [PolicyDefinition]) throws(ScenarioIssue) {
        self.definitions = []
        for definition in definitions { try register(definition) }
    }

    /// Adds `definition`.
    ///
    /// - Throws: A ``ScenarioIssue`` if a policy of that name is already registered.
    public mutating func register(_ definition: PolicyDefinition) throws(ScenarioIssue) {
        guard self.definition(named: definition.name) == nil else {
            throw ScenarioIssue(path: "app.policy.name", message: "a policy named \"\(definition.name)\" is already registered")
        }
        definitions.append(definition)
    }

    /// The policy called `name`, if registered.
    public func definition(named name: String) -> PolicyDefinition? {
        definitions.first { $0.name == name }
    }

    /// This registry with `definition` in it, replacing one of the same name (itself if `nil`):
    /// what re-reading a scenario that carries its own policy needs.
    package func including(_ definition: PolicyDefinition?) -> PolicyRegistry {
        guard let definition else { return self }
        var result = self
        result.definitions.removeAll { $0.name == definition.name }
        result.definitions.append(definition)
        return result
    }

    /// The registered names, quoted, for messages: `"none", "probe-refresh", …`.
    var quotedNames: String { definitions.map { "\"\($0.name)\"" }.joined(separator: ", ") }

    /// "expected one of …, got …" for an unknown policy `name`, naming its replacement if it is
    /// a former name (``FormerNames``).
    func unknownPolicyMessage(_ name: String) -> String {
        "expected one of \(quotedNames), got \"\(name)\"\(FormerNames.hint(for: name))"
    }

    /// The built-in policies: none, the probes and every reference app's (``ReferenceApp``),
    /// and recipes.
    public static let builtIn = PolicyRegistry(unchecked: [.none] + ReferenceApp.all.flatMap(\.policies) + [.recipe])

    /// A registry of `definitions` whose names are known to be distinct.
    private init(unchecked definitions: [PolicyDefinition]) {
        self.definitions = definitions
    }
}
