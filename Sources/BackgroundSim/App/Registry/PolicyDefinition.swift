/// A background policy the simulator can run by name: what scenario files write in
/// `app.policy.name`, the type its parameters decode to, and how to make it.
///
///     let upload = PolicyDefinition(name: "my-upload", summary: "Uploads in a processing task.",
///                                   parameters: UploadParameters.self) { UploadPolicy(parameters: $0) }
public struct PolicyDefinition: Sendable {
    /// The name scenarios use (`"coverdrop-designed"`).
    public let name: String
    /// What the policy does, in a sentence (`bgsim presets`).
    public let summary: String
    /// The type of its parameters.
    public let parametersType: any PolicyParameters.Type
    /// The task identifiers it registers and submits: what the app's Info.plist permits
    /// (`BGTaskSchedulerPermittedIdentifiers`) when a scenario is made from the policy's name
    /// alone (`bgsim run --preset NAME`). Scenario files list their own.
    public let taskIdentifiers: [String]
    /// The app's own metrics the policy's signposts measure (``AppMetricDeclaration``): what a
    /// scenario made from the policy's name, or a file that names it without `app.metrics`,
    /// declares. Set with ``measuring(_:)``.
    public private(set) var metrics: [AppMetricDeclaration] = []
    /// Makes a fresh policy for a process launch from validated parameters of
    /// ``parametersType``; `nil` for no app code.
    private let make: (@Sendable (any PolicyParameters) -> any BackgroundPolicy)?

    /// A policy with parameters of type `Parameters`.
    ///
    /// - Parameter make: Makes a fresh policy for each process launch (the simulator launches
    ///   the app many times; whatever the policy keeps in its properties is lost with the process).
    public init<Parameters: PolicyParameters>(name: String, summary: String, parameters: Parameters.Type,
                                              taskIdentifiers: [String] = [],
                                              make: @escaping @Sendable (Parameters) -> any BackgroundPolicy) {
        self.name = name
        self.summary = summary
        parametersType = Parameters.self
        self.taskIdentifiers = taskIdentifiers
        self.make = { parameters in
            guard let parameters = parameters as? Parameters else {
                preconditionFailure("PolicyDefinition \(name): parameters of type \(type(of: parameters)); validate the scenario first")
            }
            return make(parameters)
        }
    }

    /// A policy without parameters.
    public init(name: String, summary: String, taskIdentifiers: [String] = [], make: @escaping @Sendable () -> any BackgroundPolicy) {
        self.init(name: name, summary: summary, parameters: NoParameters.self, taskIdentifiers: taskIdentifiers) { _ in make() }
    }

    /// No app code: the app launches and is suspended; nothing registers or submits.
    static let none = PolicyDefinition(name: "none", summary: "No app code: the app launches and is suspended; nothing is scheduled.")

    private init(name: String, summary: String) {
        self.name = name
        self.summary = summary
        parametersType = NoParameters.self
        taskIdentifiers = []
        make = nil
    }

    /// The definition with `metrics` declared as its app's own (``metrics``).
    ///
    ///     PolicyDefinition(name: "feed", summary: "…") { FeedPolicy() }
    ///         .measuring([.contentAge(), .interval("upload", doneWithin: .hours(6))])
    public func measuring(_ metrics: [AppMetricDeclaration]) -> PolicyDefinition {
        var definition = self
        definition.metrics = metrics
        return definition
    }

    /// The parameters at their defaults.
    public var defaultParameters: any PolicyParameters { parametersType.init() }

    /// Every problem with `parameters` for this policy: a value of another type, or values out
    /// of range; paths are relative to the parameters object.
    func issues(with parameters: any PolicyParameters) -> [ScenarioIssue] {
        guard type(of: parameters) == parametersType else {
            return [ScenarioIssue(path: "", message: "expected parameters of type \(parametersType) for the policy \"\(name)\", got \(type(of: parameters))")]
        }
        return parameters.issues()
    }

    /// What the system calls at each process launch to make the policy; `nil` for no app code.
    ///
    /// - Precondition: `parameters` has no ``issues(with:)``.
    package func factory(for parameters: any PolicyParameters) -> (() -> any BackgroundPolicy)? {
        make.map { make in { make(parameters) } }
    }
}
