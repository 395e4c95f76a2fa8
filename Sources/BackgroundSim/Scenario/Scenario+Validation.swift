extension Scenario {
    /// Every value outside its valid range, with its path; empty if the scenario is usable.
    ///
    /// The ranges are the "valid" ranges in each parameter's documentation: wide enough for
    /// what-if studies, narrow enough to keep the models meaningful.
    ///
    /// - Parameter policies: The registry `app.policy` names a policy in.
    public func validate(policies: PolicyRegistry = .builtIn) -> [ScenarioIssue] {
        var v = ParameterValidator()
        v.require(!name.isEmpty && name.count <= 200, "name", "expected a name of 1 to 200 characters")

        let u = user
        v.check(u.sessionsPerDay, 0...400, "user.sessionsPerDay")
        v.check(u.sessionMedianSeconds, 1...3_600, "user.sessionMedianSeconds")
        v.check(u.sessionSigma, 0...3, "user.sessionSigma")
        v.check(u.sessionMaximumMinutes, 1...1_440, "user.sessionMaximumMinutes")
        v.checkHourlyWeights(u.hourlyWeights, "user.hourlyWeights")
        v.check(u.sleepJitterMinutes, 0...180, "user.sleepJitterMinutes")
        v.check(u.asleepIntensityFactor, 0...1, "user.asleepIntensityFactor")
        let app = u.app
        if app.profile == .custom {
            v.check(app.customSessionsPerDay, from: 0, to: u.sessionsPerDay, "user.app.customSessionsPerDay")
        } else {
            v.check(app.customSessionsPerDay, 0...400, "user.app.customSessionsPerDay")
        }
        v.check(app.sessionMedianSeconds, 1...3_600, "user.app.sessionMedianSeconds")
        v.check(app.sessionSigma, 0...3, "user.app.sessionSigma")
        v.check(app.forceQuitProbability, 0...1, "user.app.forceQuitProbability")
        for (index, absence) in app.absences.enumerated() {
            v.check(absence.startDay, 0...1_000_000, "user.app.absences[\(index)].startDay")
            v.check(absence.days, 1...1_000_000, "user.app.absences[\(index)].days")
        }

        let d = device
        if let capacity = d.capacityMilliampHours { v.check(capacity, 500...10_000, "device.capacityMilliampHours") }
        if let volts = d.nominalVolts { v.check(volts, 3.0...4.5, "device.nominalVolts") }
        v.check(d.batteryHealth, 0.5...1, "device.batteryHealth")
        v.check(d.screenOnWatts, 0.1...10, "device.screenOnWatts")
        v.check(d.screenOffBaselineWatts, 0...2, "device.screenOffBaselineWatts")
        let t = d.thermal
        v.check(t.timeConstantMinutes, 0.5...120, "device.thermal.timeConstantMinutes")
        v.check(t.chargingHeatFraction, 0...0.5, "device.thermal.chargingHeatFraction")
        v.check(t.fairWatts, 0.1...100, "device.thermal.fairWatts")
        v.check(t.seriousWatts, 0.1...100, "device.thermal.seriousWatts")
        v.check(t.criticalWatts, 0.1...100, "device.thermal.criticalWatts")
        v.require(t.fairWatts < t.seriousWatts && t.seriousWatts < t.criticalWatts, "device.thermal",
                  "expected fairWatts < seriousWatts < criticalWatts")

        let p = power
        v.check(p.overnightChargeProbability, 0...1, "power.overnightChargeProbability")
        v.check(p.overnightPlugInJitterMinutes, 0...240, "power.overnightPlugInJitterMinutes")
        v.check(p.overnightUnplugJitterMinutes, 0...240, "power.overnightUnplugJitterMinutes")
        v.check(p.topUpsPerDay, 0...10, "power.topUpsPerDay")
        v.check(p.topUpMinimumMinutes, 1...600, "power.topUpMinimumMinutes")
        v.check(p.topUpMaximumMinutes, from: p.topUpMinimumMinutes, to: 600, "power.topUpMaximumMinutes")
        v.checkHourlyWeights(p.topUpHourWeights, "power.topUpHourWeights")
        v.check(p.chargeMinutesTo50, 1...600, "power.chargeMinutesTo50")
        v.check(p.chargeMinutes50To80, 1...600, "power.chargeMinutes50To80")
        v.check(p.chargeMinutes80To100, 1...600, "power.chargeMinutes80To100")
        v.check(p.optimizedChargingLearningDays, 0...365, "power.optimizedChargingLearningDays")
        v.check(p.optimizedChargingMarginMinutes, 0...240, "power.optimizedChargingMarginMinutes")
        v.check(p.chargeLimitPercent, 50...100, "power.chargeLimitPercent")
        v.check(p.lowPowerModeAcceptProbability, 0...1, "power.lowPowerModeAcceptProbability")
        v.check(p.powerOnPercent, 0.5...20, "power.powerOnPercent")
        v.check(p.initialBatteryPercent, 1...100, "power.initialBatteryPercent")

        let n = network
        v.check(n.wifiShare, 0...1, "network.wifiShare")
        v.check(n.offlineShare, 0...0.5, "network.offlineShare")
        v.check(n.homeWifiProbability, 0...1, "network.homeWifiProbability")
        v.check(n.homeJitterMinutes, 0...240, "network.homeJitterMinutes")
        v.check(n.weekendStayHomeProbability, 0...1, "network.weekendStayHomeProbability")
        v.check(n.awayWifiSegmentMinutes, 1...600, "network.awayWifiSegmentMinutes")
        v.check(n.awayCellularSegmentMinutes, 1...600, "network.awayCellularSegmentMinutes")
        v.check(n.offlineSegmentMinutes, 1...600, "network.offlineSegmentMinutes")
        v.check(n.fiveGShare, 0...1, "network.fiveGShare")
        v.check(n.goodSignalShare, 0...1, "network.goodSignalShare")
        v.check(n.poorSignalShare, from: 0, to: 1 - n.goodSignalShare, "network.poorSignalShare")
        for (value, path) in [
            (n.wifiDownlinkMbps, "wifiDownlinkMbps"), (n.wifiUplinkMbps, "wifiUplinkMbps"),
            (n.lteDownlinkMbps, "lteDownlinkMbps"), (n.lteUplinkMbps, "lteUplinkMbps"),
            (n.fiveGDownlinkMbps, "fiveGDownlinkMbps"), (n.fiveGUplinkMbps, "fiveGUplinkMbps"),
        ] {
            v.check(value, 0.1...5_000, "network.\(path)")
        }
        v.check(n.mediumSignalThroughputFactor, 0.01...1, "network.mediumSignalThroughputFactor")
        v.check(n.poorSignalThroughputFactor, 0.01...1, "network.poorSignalThroughputFactor")
        if v.issues.allSatisfy({ !$0.path.hasPrefix("network") }) {
            do {
                _ = try NetworkPlan.awayShares(n)
            } catch {
                v.require(false, error.path, error.message)
            }
        }

        let e = energy
        v.check(e.cpuAwakeWatts, 0...10, "energy.cpuAwakeWatts")
        v.check(e.transferCPUWatts, 0...10, "energy.transferCPUWatts")
        v.check(e.wakeOverheadSeconds, 0...60, "energy.wakeOverheadSeconds")
        v.check(e.tailShareProbability, 0...1, "energy.tailShareProbability")
        v.check(e.fiveGPowerMultiplier, 0.5...5, "energy.fiveGPowerMultiplier")
        v.check(e.fiveGTailSeconds, 0...60, "energy.fiveGTailSeconds")
        v.check(e.mediumSignalPowerMultiplier, 1...5, "energy.mediumSignalPowerMultiplier")
        v.check(e.poorSignalPowerMultiplier, 1...5, "energy.poorSignalPowerMultiplier")
        do {
            let radio = e.lte, prefix = "energy.lte"
            v.check(radio.promotionSeconds, 0...10, "\(prefix).promotionSeconds")
            v.check(radio.promotionWatts, 0...10, "\(prefix).promotionWatts")
            v.check(radio.activeBaseWatts, 0...10, "\(prefix).activeBaseWatts")
            v.check(radio.uplinkMilliwattsPerMbps, 0...5_000, "\(prefix).uplinkMilliwattsPerMbps")
            v.check(radio.downlinkMilliwattsPerMbps, 0...5_000, "\(prefix).downlinkMilliwattsPerMbps")
            v.check(radio.tailSeconds, 0...60, "\(prefix).tailSeconds")
            v.check(radio.tailWatts, 0...10, "\(prefix).tailWatts")
        }
        let w = e.wifi
        v.check(w.promotionSeconds, 0...10, "energy.wifi.promotionSeconds")
        v.check(w.promotionWatts, 0...10, "energy.wifi.promotionWatts")
        v.check(w.activeBaseWatts, 0...10, "energy.wifi.activeBaseWatts")
        v.check(w.uplinkMilliwattsPerMbps, 0...5_000, "energy.wifi.uplinkMilliwattsPerMbps")
        v.check(w.downlinkMilliwattsPerMbps, 0...5_000, "energy.wifi.downlinkMilliwattsPerMbps")
        v.check(w.tailSeconds, 0...60, "energy.wifi.tailSeconds")
        v.check(w.tailWatts, 0...10, "energy.wifi.tailWatts")

        let policy = self.app.policy
        if let definition = policy.resolved(in: policies) {
            v.append(definition.issues(with: policy.parameters), under: "app.policy.parameters")
        } else {
            v.require(false, "app.policy.name", policies.unknownPolicyMessage(policy.name))
        }

        let s = system
        v.check(s.extensionBudgetSeconds, 1...600, "system.extensionBudgetSeconds")
        v.check(s.expirationLeadSeconds, from: 0, to: s.extensionBudgetSeconds, "system.expirationLeadSeconds")
        v.check(s.refreshRuntimeSeconds, 1...300, "system.refreshRuntimeSeconds")
        v.check(s.refreshEarlyExpiryProbability, 0...1, "system.refreshEarlyExpiryProbability")
        v.check(s.processingEarlyExpiryProbability, 0...1, "system.processingEarlyExpiryProbability")
        v.check(s.processingEarlyExpiryMinimumSeconds, from: 1, to: Swift.min(600, s.processingMaxRuntimeMinutes * 60),
                "system.processingEarlyExpiryMinimumSeconds")
        v.check(s.processingMaxRuntimeMinutes, 0.5...240, "system.processingMaxRuntimeMinutes")
        v.check(s.taskCompletionGraceSeconds, 0...60, "system.taskCompletionGraceSeconds")
        v.check(s.throttlePenaltyHours, 0...168, "system.throttlePenaltyHours")
        v.check(s.suspendedTerminationPerHour, 0...10, "system.suspendedTerminationPerHour")
        v.check(s.cpuMonitorPercent, 1...100, "system.cpuMonitorPercent")
        v.check(s.cpuMonitorSeconds, 1...3_600, "system.cpuMonitorSeconds")
        let h = s.heuristic
        v.check(h.evaluationMinutes, 1...240, "system.heuristic.evaluationMinutes")
        v.check(h.refreshBasePerDay, 0...24, "system.heuristic.refreshBasePerDay")
        v.check(h.refreshPerAppSession, 0...24, "system.heuristic.refreshPerAppSession")
        v.check(h.refreshMaximumPerDay, 0...96, "system.heuristic.refreshMaximumPerDay")
        v.check(h.refreshMinimumSpacingMinutes, 1...1_440, "system.heuristic.refreshMinimumSpacingMinutes")
        v.check(h.refreshLeadMinutes, 0...720, "system.heuristic.refreshLeadMinutes")
        v.check(h.usageHalfLifeDays, 0.5...60, "system.heuristic.usageHalfLifeDays")
        v.check(h.refreshRecencyDays, 0.5...60, "system.heuristic.refreshRecencyDays")
        v.check(h.refreshFadeHalfLifeDays, 0.5...30, "system.heuristic.refreshFadeHalfLifeDays")
        v.check(h.processingFadeHalfLifeDays, 0.5...30, "system.heuristic.processingFadeHalfLifeDays")
        v.check(h.idleDelayMinutes, 0...120, "system.heuristic.idleDelayMinutes")
        v.check(h.processingRecencyDays, 0.5...60, "system.heuristic.processingRecencyDays")
        v.check(h.processingMinimumSpacingHours, 0...168, "system.heuristic.processingMinimumSpacingHours")
        v.check(h.processingChargingChancePerEvaluation, 0...1, "system.heuristic.processingChargingChancePerEvaluation")
        v.check(h.processingBatteryChancePerEvaluation, 0...1, "system.heuristic.processingBatteryChancePerEvaluation")
        v.check(h.criticalBatteryPercent, 0...100, "system.heuristic.criticalBatteryPercent")
        s.budget.validate(&v)
        s.continuedProcessing.validate(&v)
        s.backgroundURLSession.validate(&v)
        s.push.validate(&v)
        pushes.validate(&v)
        s.replay.validate(&v, launchModel: s.launchModel)

        let load = work
        v.check(load.itemsPerAppSession, 0...100, "work.itemsPerAppSession")
        v.check(load.cadenceSeconds, 1...86_400, "work.cadenceSeconds")
        v.check(load.uploadMedianKilobytes, 0...10_000_000, "work.uploadMedianKilobytes")
        v.check(load.uploadSigma, 0...3, "work.uploadSigma")
        v.check(load.downloadMedianKilobytes, 0...10_000_000, "work.downloadMedianKilobytes")
        v.check(load.downloadSigma, 0...3, "work.downloadSigma")
        v.check(load.cpuMedianSeconds, 0...86_400, "work.cpuMedianSeconds")
        v.check(load.cpuSigma, 0...3, "work.cpuSigma")
        v.check(load.deadlineHours, 0...8_760, "work.deadlineHours")
        v.check(load.maximumQueuedItems, 1...1_000_000, "work.maximumQueuedItems")
        if load.arrivals != .none {
            // An item that needs nothing would complete in no time, again and again.
            v.require(load.cpuMedianSeconds > 0 || load.uploadMedianKilobytes > 0 || load.downloadMedianKilobytes > 0, "work",
                      "expected items that need some work: cpuMedianSeconds, uploadMedianKilobytes or downloadMedianKilobytes above 0")
        }

        let c = clock
        v.check(c.randomJumpsPerDay, 0...24, "clock.randomJumpsPerDay")
        v.check(c.randomJumpSigmaMinutes, 0...10_080, "clock.randomJumpSigmaMinutes")
        for (index, jump) in c.jumps.enumerated() {
            v.check(jump.atHours, 0...24 * 1_000_000, "clock.jumps[\(index)].atHours")
            v.check(jump.byMinutes, -525_600...525_600, "clock.jumps[\(index)].byMinutes")
        }

        let hours = 0.0...(24 * 1_000_000)
        let f = faults
        func window(_ from: Double, _ to: Double, _ path: String) {
            v.check(from, hours, path + ".fromHours")
            v.check(to, from: Swift.max(from, 0), to: hours.upperBound, path + ".toHours")
        }
        for (index, fault) in f.earlyExpirations.enumerated() {
            window(fault.fromHours, fault.toHours, "faults.earlyExpirations[\(index)]")
            v.check(fault.afterSeconds, 0...600, "faults.earlyExpirations[\(index)].afterSeconds")
        }
        for (index, fault) in f.jetsams.enumerated() { v.check(fault.atHours, hours, "faults.jetsams[\(index)].atHours") }
        for (index, fault) in f.backgroundAppRefreshOff.enumerated() {
            window(fault.fromHours, fault.toHours, "faults.backgroundAppRefreshOff[\(index)]")
        }
        // Every fault is at least one event: bounded, so that no scenario asks for unbounded work.
        let entries = [("earlyExpirations", f.earlyExpirations.count), ("jetsams", f.jetsams.count),
                       ("backgroundAppRefreshOff", f.backgroundAppRefreshOff.count), ("networkFlaps", f.networkFlaps.count),
                       ("submitErrors", f.submitErrors.count), ("batteryDeaths", f.batteryDeaths.count)]
        for (kind, count) in entries {
            v.require(count <= FaultPlan.maximumEntries, "faults.\(kind)",
                      "expected at most \(FaultPlan.maximumEntries) entries, got \(count)")
        }
        var flapCycles = 0.0
        for (index, fault) in f.networkFlaps.enumerated() {
            window(fault.fromHours, fault.toHours, "faults.networkFlaps[\(index)]")
            v.check(fault.offSeconds, 1...3_600, "faults.networkFlaps[\(index)].offSeconds")
            v.check(fault.onSeconds, 1...3_600, "faults.networkFlaps[\(index)].onSeconds")
            let cycles = (fault.toHours - fault.fromHours) * 3_600 / (fault.offSeconds + fault.onSeconds)
            if cycles.isFinite && cycles > 0 { flapCycles += cycles }
        }
        v.require(flapCycles <= FaultPlan.maximumFlapCycles, "faults.networkFlaps",
                  "expected at most \(Int(FaultPlan.maximumFlapCycles)) off/on cycles in all windows (each is two events), got \(ParameterValidator.format(flapCycles.rounded())); use fewer or shorter windows, or longer offSeconds + onSeconds")
        for (index, fault) in f.submitErrors.enumerated() { window(fault.fromHours, fault.toHours, "faults.submitErrors[\(index)]") }
        for (index, fault) in f.batteryDeaths.enumerated() { v.check(fault.atHours, hours, "faults.batteryDeaths[\(index)].atHours") }
        debugger.validate(&v)
        return v.issues
    }
}
