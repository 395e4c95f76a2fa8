import BackgroundSim
import SimKernel

/// Makes a failing run small: the fewest days, the fewest faults and the plainest scenario that
/// still break the same invariant with the same seed.
///
/// It cuts the run to the day of the first violation, makes random device clock jumps explicit
/// (so they can be removed one by one), then tries simplifications one at a time — remove a
/// fault or a clock jump, halve a fault's window, drop an absence, halve the workload, put a
/// parameter the swarm drew back to the base scenario's value — keeping each that still fails,
/// and cutting the days again after each, until none does.
package struct Shrinker: Sendable {
    package let checker: PolicyChecker
    /// The most candidate runs to try. Default 400.
    package var maximumAttempts = 400

    package init(checker: PolicyChecker) {
        self.checker = checker
    }

    /// The smallest failing run found from `failure` (which must have failed).
    ///
    /// - Throws: ``ScenarioIssue`` if a candidate cannot be realised (the candidates are built
    ///   to stay valid, so this is not expected).
    package func shrink(_ failure: RunCheck) throws -> ShrunkFailure {
        precondition(!failure.passed, "Shrinker: the run must have failed")
        let target = failure.violations[0].invariant
        var attempts = 0
        var accepted = 0

        /// The run of `scenario` for `days` if it still breaks the target invariant.
        func failing(_ scenario: Scenario, _ days: Int) throws -> RunCheck? {
            attempts += 1
            let run = try checker.check(seed: failure.seed, scenario: scenario, days: days)
            return run.violations.contains { $0.invariant == target } ? run : nil
        }
        func firstDay(_ run: RunCheck) -> Int { run.violations.first { $0.invariant == target }!.day }

        var best = failure
        // The run up to the end of the day the invariant first broke: a prefix of the same run.
        if let cut = try failing(best.scenario, firstDay(best) + 1) { best = cut }
        // Random clock jumps made explicit, so they can be removed one at a time.
        if best.scenario.clock.randomJumpsPerDay > 0 {
            var explicit = best.scenario
            explicit.clock.randomJumpsPerDay = 0
            explicit.clock.jumps = best.clockJumps
            if let run = try failing(explicit, best.days) { best = run; accepted += 1 }
        }

        // Passes over the simplifications; after each one kept, the list is made again from the
        // simpler scenario and the pass goes on from the same place, so candidates that failed
        // to simplify are not retried until the next pass.
        // Every simplification makes the scenario simpler in one direction only, so none undoes
        // another; the scenarios already tried are remembered anyway, so none is run twice.
        var tried: Set<String> = [JSONWriter.compact(ScenarioLoader.document(of: best.scenario))]
        var improved = true
        while improved && attempts < maximumAttempts {
            improved = false
            var candidates = simplifications(of: best.scenario)
            var position = 0
            while position < candidates.count && attempts < maximumAttempts {
                guard tried.insert(JSONWriter.compact(ScenarioLoader.document(of: candidates[position]))).inserted,
                      let run = try failing(candidates[position], best.days) else {
                    position += 1
                    continue
                }
                best = run
                accepted += 1
                improved = true
                let day = firstDay(best)
                if day + 1 < best.days, let shorter = try failing(best.scenario, day + 1) { best = shorter }
                candidates = simplifications(of: best.scenario)
            }
        }
        return ShrunkFailure(original: failure, minimal: best, attempts: attempts, simplifications: accepted)
    }

    /// Scenarios one step simpler than `scenario`, most effective first.
    func simplifications(of scenario: Scenario) -> [Scenario] {
        var candidates: [Scenario] = []
        func variant(_ change: (inout Scenario) -> Void) {
            var candidate = scenario
            change(&candidate)
            if candidate != scenario { candidates.append(candidate) }
        }
        // The other doors' system parameters back to their defaults (a swarm varies them for
        // every policy); then remove whole kinds of faults, then single faults and jumps.
        variant {
            $0.system.backgroundURLSession = BackgroundURLSessionParameters()
            $0.system.continuedProcessing = ContinuedProcessingParameters()
            $0.system.push = PushParameters()
            $0.system.otherApps = OtherAppsParameters()
        }
        variant { $0.faults = FaultPlan() }
        variant { $0.clock.jumps = [] }
        for index in scenario.faults.earlyExpirations.indices { variant { $0.faults.earlyExpirations.remove(at: index) } }
        for index in scenario.faults.jetsams.indices { variant { $0.faults.jetsams.remove(at: index) } }
        for index in scenario.faults.backgroundAppRefreshOff.indices { variant { $0.faults.backgroundAppRefreshOff.remove(at: index) } }
        for index in scenario.faults.networkFlaps.indices { variant { $0.faults.networkFlaps.remove(at: index) } }
        for index in scenario.faults.submitErrors.indices { variant { $0.faults.submitErrors.remove(at: index) } }
        for index in scenario.faults.batteryDeaths.indices { variant { $0.faults.batteryDeaths.remove(at: index) } }
        for index in scenario.clock.jumps.indices { variant { $0.clock.jumps.remove(at: index) } }
        for index in scenario.user.app.absences.indices { variant { $0.user.app.absences.remove(at: index) } }
        variant { $0.clock.randomJumpsPerDay = 0 }
        // Faults and jumps a day earlier, so that the failure may come sooner and the run be cut.
        for index in scenario.clock.jumps.indices where scenario.clock.jumps[index].atHours >= 24 {
            variant { $0.clock.jumps[index].atHours -= 24 }
        }
        for index in scenario.faults.jetsams.indices where scenario.faults.jetsams[index].atHours >= 24 {
            variant { $0.faults.jetsams[index].atHours -= 24 }
        }
        for index in scenario.faults.batteryDeaths.indices where scenario.faults.batteryDeaths[index].atHours >= 24 {
            variant { $0.faults.batteryDeaths[index].atHours -= 24 }
        }
        for index in scenario.faults.earlyExpirations.indices where scenario.faults.earlyExpirations[index].fromHours >= 24 {
            variant { $0.faults.earlyExpirations[index].fromHours -= 24; $0.faults.earlyExpirations[index].toHours -= 24 }
        }
        for index in scenario.faults.backgroundAppRefreshOff.indices where scenario.faults.backgroundAppRefreshOff[index].fromHours >= 24 {
            variant { $0.faults.backgroundAppRefreshOff[index].fromHours -= 24; $0.faults.backgroundAppRefreshOff[index].toHours -= 24 }
        }
        for index in scenario.faults.networkFlaps.indices where scenario.faults.networkFlaps[index].fromHours >= 24 {
            variant { $0.faults.networkFlaps[index].fromHours -= 24; $0.faults.networkFlaps[index].toHours -= 24 }
        }
        for index in scenario.faults.submitErrors.indices where scenario.faults.submitErrors[index].fromHours >= 24 {
            variant { $0.faults.submitErrors[index].fromHours -= 24; $0.faults.submitErrors[index].toHours -= 24 }
        }
        // Shorter fault windows.
        for index in scenario.faults.earlyExpirations.indices {
            variant { $0.faults.earlyExpirations[index].toHours = Self.halved($0.faults.earlyExpirations[index].fromHours, $0.faults.earlyExpirations[index].toHours) }
        }
        for index in scenario.faults.backgroundAppRefreshOff.indices {
            variant { $0.faults.backgroundAppRefreshOff[index].toHours = Self.halved($0.faults.backgroundAppRefreshOff[index].fromHours, $0.faults.backgroundAppRefreshOff[index].toHours) }
        }
        for index in scenario.faults.networkFlaps.indices {
            variant { $0.faults.networkFlaps[index].toHours = Self.halved($0.faults.networkFlaps[index].fromHours, $0.faults.networkFlaps[index].toHours) }
        }
        for index in scenario.faults.submitErrors.indices {
            variant { $0.faults.submitErrors[index].toHours = Self.halved($0.faults.submitErrors[index].fromHours, $0.faults.submitErrors[index].toHours) }
        }
        // Less work, fewer force-quits.
        // Only the fields the workload uses: fewer items per session, or a slower cadence.
        switch scenario.work.arrivals {
        case .appSessions where scenario.work.itemsPerAppSession > 0.05:
            variant { $0.work.itemsPerAppSession /= 2 }
        case .cadence where scenario.work.cadenceSeconds < 43_200:
            variant { $0.work.cadenceSeconds = Swift.min(86_400, $0.work.cadenceSeconds * 2) }
        default:
            break
        }
        variant { $0.user.app.forceQuitProbability = 0 }
        // What a swarm drew, back to the base scenario's values.
        let base = checker.scenario
        variant { $0.system.launchModel = base.system.launchModel }
        variant { $0.user.sessionsPerDay = base.user.sessionsPerDay }
        variant { $0.user.app.profile = base.user.app.profile }
        variant {
            $0.network.wifiShare = base.network.wifiShare
            $0.network.offlineShare = base.network.offlineShare
            $0.network.poorSignalShare = base.network.poorSignalShare
            $0.network.goodSignalShare = base.network.goodSignalShare
        }
        variant {
            $0.power.overnightChargeProbability = base.power.overnightChargeProbability
            $0.power.topUpsPerDay = base.power.topUpsPerDay
        }
        variant { $0.power.initialBatteryPercent = base.power.initialBatteryPercent }
        variant { $0.work = base.work }
        return candidates
    }

    /// The end of a window half as long, to the millisecond.
    static func halved(_ from: Double, _ to: Double) -> Double {
        from + ((to - from) / 2 * 3_600_000).rounded() / 3_600_000
    }
}

/// A failure and the smallest run found that still fails the same way.
package struct ShrunkFailure: Sendable {
    /// The run as found.
    package var original: RunCheck
    /// The smallest failing run: its scenario, days and (same) seed.
    package var minimal: RunCheck
    /// Candidate runs tried.
    package var attempts: Int
    /// Simplifications kept.
    package var simplifications: Int

    /// The first violation of the minimal run's target invariant.
    package var violation: Violation {
        minimal.violations.first { $0.invariant == original.violations[0].invariant }!
    }

    /// The command that replays the minimal run with the tool `toolName` (`bgsim`, or a team's
    /// own), given the file its scenario was written to.
    package func replayCommand(scenarioFile: String, toolName: String = "bgsim") -> String {
        "\(toolName) run --scenario \(scenarioFile) --seed \(minimal.seed) --days \(minimal.days) --trace trace.jsonl"
    }

    /// The command that checks the minimal run again.
    package func checkCommand(scenarioFile: String, toolName: String = "bgsim") -> String {
        "\(toolName) check --scenario \(scenarioFile) --seed \(minimal.seed) --days \(minimal.days)"
    }
}
