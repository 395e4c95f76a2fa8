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

    /// The built-in policies: none, the probes and the reference policies.
    public static let builtIn: PolicyRegistry = {
        PolicyRegistry(unchecked: [
            .none,
            PolicyDefinition(name: "probe-refresh", summary: "Keeps one app refresh request pending, 15 min after each submit.",
                             taskIdentifiers: [ProbePolicy.refreshIdentifier]) {
                ProbePolicy(kind: .appRefresh)
            },
            PolicyDefinition(name: "probe-processing",
                             summary: "Keeps one processing request (power and network) pending, 15 min after each submit.",
                             taskIdentifiers: [ProbePolicy.processingIdentifier]) {
                ProbePolicy(kind: .processing)
            },
            PolicyDefinition(name: "proton-upload", summary: "Proton Drive: uploads in an extension, then a processing task; URLs expire after 3 h.",
                             parameters: ProtonUploadParameters.self, taskIdentifiers: [ProtonUploadParameters().identifier]) { ExtensionThenProcessingUpload(parameters: $0) },
            PolicyDefinition(name: "coverdrop-send", summary: "CoverDrop: message sending in app refresh, rate-limited hourly, backoff 5–120 min.",
                             parameters: CoverDropParameters.self, taskIdentifiers: [CoverDropParameters().identifier]) { RefreshMessageSender(parameters: $0) },
            PolicyDefinition(name: "coverdrop-send-forgetful",
                             summary: "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted.",
                             parameters: CoverDropParameters.self, taskIdentifiers: [CoverDropParameters().identifier]) {
                RefreshMessageSender(parameters: $0, forgetsCompletionAfterClockJump: true)
            },
            PolicyDefinition(name: "zashi-sync", summary: "Zashi: wallet sync in a processing task on power and Wi-Fi, completed only when synced.",
                             parameters: ZashiSyncParameters.self, taskIdentifiers: [ZashiSyncParameters().identifier]) { ProcessingSync(parameters: $0) },
            PolicyDefinition(name: "bgscheduler-demo", summary: "TestBGScheduler: refresh 60 s after backgrounding, every 60 s, three 2 s operations.",
                             parameters: PeriodicDemoParameters.self, taskIdentifiers: [PeriodicDemoParameters().identifier]) { PeriodicRefreshDemo(parameters: $0) },
            PolicyDefinition(name: "recipe", summary: "A policy described as data: request, delay rule, when to submit, retries, what a run does (docs/RECIPES.md).",
                             parameters: RecipeParameters.self, taskIdentifiers: [RecipeParameters().identifier]) { RecipePolicy(parameters: $0) },
        ])
    }()

    /// A registry of `definitions` whose names are known to be distinct.
    private init(unchecked definitions: [PolicyDefinition]) {
        self.definitions = definitions
    }
}
