extension ReferenceApp {
    /// TestBGScheduler, a sample app people copy: app refresh every 60 s with three 2 s
    /// operations (as designed), and with its handler registered in the scene delegate and its
    /// task completed twice (as shipped: `bgsim check` finds both).
    static let testBGScheduler = ReferenceApp(
        name: "TestBGScheduler",
        sources: ["i336616/TestBGScheduler `9176947` (its README and code)"],
        policies: [
            PolicyDefinition(name: "bgscheduler-designed", summary: "TestBGScheduler as designed: refresh 60 s after backgrounding, every 60 s, three 2 s operations.",
                             parameters: BGSchedulerParameters.self, taskIdentifiers: [BGSchedulerParameters().identifier]) {
                BGSchedulerDesigned(parameters: $0)
            },
            PolicyDefinition(name: "bgscheduler-shipped",
                             summary: "TestBGScheduler as shipped: handler registered in the scene delegate, setTaskCompleted called twice.",
                             parameters: BGSchedulerParameters.self, taskIdentifiers: [BGSchedulerParameters().identifier]) {
                BGSchedulerShipped(parameters: $0)
            },
        ],
        presets: {
            [
                Presets.Preset(scenario(name: "bgscheduler-designed", policy: PolicyConfiguration(name: "bgscheduler-designed"),
                                        identifiers: [BGSchedulerParameters().identifier],
                                        description: "TestBGScheduler as designed: refresh 60 s after backgrounding, every 60 s, three 2 s operations.")),
                Presets.Preset(scenario(name: "bgscheduler-shipped", policy: PolicyConfiguration(name: "bgscheduler-shipped"),
                                        identifiers: [BGSchedulerParameters().identifier],
                                        description: "TestBGScheduler as shipped: handler registered in the scene delegate; setTaskCompleted called twice.")),
            ]
        })
}
