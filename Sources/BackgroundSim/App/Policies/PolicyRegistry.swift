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

    /// The policy called `name`, if registered, or the built-in policy a former built-in name
    /// (``renamed``) now stands for.
    public func definition(named name: String) -> PolicyDefinition? {
        definitions.first { $0.name == name }
            ?? PolicyRegistry.renamed.first { $0.old == name }.flatMap { renamed in definitions.first { $0.name == renamed.new } }
    }

    /// The names built-in policies had before each seed app existed as designed and as shipped,
    /// and the policy each now stands for (the same as the presets': ``Presets/renamed``).
    public static var renamed: [(old: String, new: String)] { Presets.renamed }

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
            PolicyDefinition(name: "proton-upload-designed",
                             summary: "Proton Drive as designed: uploads in an extension, then a processing task (network required).",
                             parameters: ProtonUploadParameters.self, taskIdentifiers: [ProtonUploadParameters().identifier]) {
                ExtensionThenProcessingUpload(parameters: $0)
            },
            PolicyDefinition(name: "proton-upload-shipped",
                             summary: "Proton Drive as shipped in the App Store build: uploads in the extension only, paused when it expires.",
                             parameters: ProtonStoreUploadParameters.self) { ExtensionOnlyUpload(parameters: $0) },
            PolicyDefinition(name: "proton-upload-urlsession",
                             summary: "Proton Drive's uploads handed to a background URL session (a door the app does not use).",
                             parameters: ProtonURLSessionParameters.self) { URLSessionUpload(parameters: $0) },
            PolicyDefinition(name: "proton-upload-continued",
                             summary: "Proton Drive's uploads in an iOS 26 continued-processing task (a door the app does not use).",
                             parameters: ProtonContinuedParameters.self, taskIdentifiers: [ProtonContinuedParameters().wildcardIdentifier]) {
                ContinuedProcessingUpload(parameters: $0)
            },
            PolicyDefinition(name: "proton-photos-backup",
                             summary: "Proton Drive's Photos backup as shipped: its own processing task, at once when photos wait, else a day ahead.",
                             parameters: PhotosBackupParameters.self, taskIdentifiers: [PhotosBackupParameters().identifier]) {
                PhotosBackupProcessing(parameters: $0)
            },
            PolicyDefinition(name: "coverdrop-designed",
                             summary: "CoverDrop as designed: real messages in app refresh, cancel on success, backoff 5–120 min, hourly limit.",
                             parameters: CoverDropParameters.self, taskIdentifiers: [CoverDropParameters().identifier]) { RefreshMessageSender(parameters: $0) },
            PolicyDefinition(name: "coverdrop-shipped",
                             summary: "CoverDrop as shipped: 2 fixed-size messages a run padded with cover, a run on every foreground, no cancel.",
                             parameters: CoverDropShippedParameters.self, taskIdentifiers: [CoverDropShippedParameters().identifier]) {
                CoverDropShipped(parameters: $0)
            },
            PolicyDefinition(name: "coverdrop-push",
                             summary: "CoverDrop sending woken by its server's silent pushes instead of app refresh (a door the app does not use).",
                             parameters: CoverDropPushParameters.self) { PushMessageSender(parameters: $0) },
            PolicyDefinition(name: "coverdrop-send-forgetful",
                             summary: "CoverDrop with a planted bug: after the device clock jumps back, the worker forgets setTaskCompleted.",
                             parameters: CoverDropParameters.self, taskIdentifiers: [CoverDropParameters().identifier]) {
                RefreshMessageSender(parameters: $0, forgetsCompletionAfterClockJump: true)
            },
            PolicyDefinition(name: "zashi-designed", summary: "Zashi as designed: wallet sync in a processing task on power and Wi-Fi, completed only when synced.",
                             parameters: ZashiSyncParameters.self, taskIdentifiers: [ZashiSyncParameters().identifier]) { ProcessingSync(parameters: $0) },
            PolicyDefinition(name: "zashi-shipped",
                             summary: "Zashi as shipped: sync the next night 03:00 + 0–60 min, a 14:00 scheduler task, no keys while locked.",
                             parameters: ZashiShippedParameters.self,
                             taskIdentifiers: [ZashiShippedParameters().syncIdentifier, ZashiShippedParameters().schedulerIdentifier]) {
                ZashiShippedSync(parameters: $0)
            },
            PolicyDefinition(name: "bgscheduler-designed", summary: "TestBGScheduler as designed: refresh 60 s after backgrounding, every 60 s, three 2 s operations.",
                             parameters: PeriodicDemoParameters.self, taskIdentifiers: [PeriodicDemoParameters().identifier]) { PeriodicRefreshDemo(parameters: $0) },
            PolicyDefinition(name: "bgscheduler-shipped",
                             summary: "TestBGScheduler as shipped: handler registered in the scene delegate, setTaskCompleted called twice.",
                             parameters: PeriodicDemoParameters.self, taskIdentifiers: [PeriodicDemoParameters().identifier]) {
                SceneRegisteredRefreshDemo(parameters: $0)
            },
            PolicyDefinition(name: "recipe", summary: "A policy described as data: request, delay rule, when to submit, retries, what a run does (docs/RECIPES.md).",
                             parameters: RecipeParameters.self, taskIdentifiers: [RecipeParameters().identifier]) { RecipePolicy(parameters: $0) },
        ])
    }()

    /// A registry of `definitions` whose names are known to be distinct.
    private init(unchecked definitions: [PolicyDefinition]) {
        self.definitions = definitions
    }
}
