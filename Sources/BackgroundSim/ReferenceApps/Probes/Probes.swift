extension ReferenceApp {
    /// Not an app: two policies that keep one request pending, to measure how often the system
    /// launches each kind of task (the launch model's calibration).
    static let probes = ReferenceApp(
        name: "Probes",
        sources: ["the launch model's calibration targets (docs/MODEL.md)"],
        policies: [
            PolicyDefinition(name: "probe-refresh", summary: "Keeps one app refresh request pending, 15 min after each submit.",
                             taskIdentifiers: [ProbePolicy.refreshIdentifier]) { ProbePolicy(kind: .appRefresh) },
            PolicyDefinition(name: "probe-processing",
                             summary: "Keeps one processing request (power and network) pending, 15 min after each submit.",
                             taskIdentifiers: [ProbePolicy.processingIdentifier]) { ProbePolicy(kind: .processing) },
        ],
        presets: {
            [
                Presets.Preset(probe(kind: .appRefresh)),
                Presets.Preset(probe(kind: .processing)),
            ]
        })

    /// The default user and device with the probe of `kind`.
    private static func probe(kind: TaskRequest.Kind) -> Scenario {
        let name = kind == .appRefresh ? "probe-refresh" : "probe-processing"
        return scenario(name: name, policy: PolicyConfiguration(name: name),
                        identifiers: [kind == .appRefresh ? ProbePolicy.refreshIdentifier : ProbePolicy.processingIdentifier],
                        description: "Measures how often the system launches a \(kind == .appRefresh ? "refresh" : "processing") task.")
    }
}
