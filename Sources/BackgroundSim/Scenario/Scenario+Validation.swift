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
