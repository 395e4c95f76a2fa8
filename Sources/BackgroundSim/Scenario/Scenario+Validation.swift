extension Scenario {
    /// Every value outside its valid range, with its path; empty if the scenario is usable.
    ///
    /// Each section validates itself (``ScenarioSection``): its numbers against the ranges it
    /// states once (``NumberField``), then the relations no single range expresses; the policy's
    /// parameters validate themselves too (``PolicyParameters``).
    ///
    /// - Parameter policies: The registry `app.policy` names a policy in.
    public func validate(policies: PolicyRegistry = .builtIn) -> [ScenarioIssue] {
        var v = ParameterValidator()
        v.require(!name.isEmpty && name.count <= 200, "name", "expected a name of 1 to 200 characters")
        user.validate(&v, at: "user")
        device.validate(&v, at: "device")
        power.validate(&v, at: "power")
        restarts.validate(&v, at: "restarts")
        network.validate(&v, at: "network")
        energy.validate(&v, at: "energy")
        let policy = app.policy
        if let definition = policy.resolved(in: policies) {
            v.append(definition.issues(with: policy.parameters), under: "app.policy.parameters")
        } else {
            v.require(false, "app.policy.name", policies.unknownPolicyMessage(policy.name))
        }
        validateAppMetrics(&v)
        var launch = ParameterValidator()
        app.launch.validate(&launch)
        v.append(launch.issues, under: "app.launch")
        system.validate(&v, at: "system")
        pushes.validate(&v, at: "pushes")
        work.validate(&v, at: "work")
        clock.validate(&v, at: "clock")
        faults.validate(&v, at: "faults")
        debugger.validate(&v, at: "debugger")
        validatePlausible(&v)
        return v.issues
    }
}

extension Scenario {
    /// Each of `app.metrics`, and that no two measure the same figures.
    func validateAppMetrics(_ v: inout ParameterValidator) {
        var seen: [String] = []
        for (index, declaration) in app.metrics.enumerated() {
            var inner = ParameterValidator()
            declaration.validate(&inner)
            v.append(inner.issues, under: "app.metrics[\(index)]")
            let identity = declaration.kind == .contentAge ? "contentAge" : "\(declaration.kind.rawValue) \(declaration.signpostName)"
            v.require(!seen.contains(identity), "app.metrics[\(index)]",
                      declaration.kind == .contentAge ? "expected one content-age metric, got a second"
                                                      : "expected one \(declaration.kind.rawValue) metric named \"\(declaration.signpostName)\", got a second")
            seen.append(identity)
        }
        v.require(app.metrics.count <= 32, "app.metrics", "expected at most 32 metrics, got \(app.metrics.count)")
    }
}
