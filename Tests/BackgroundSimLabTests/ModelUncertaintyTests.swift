import Foundation
import BackgroundSim
import SimKernel
@testable import BackgroundSimLab
import Testing

@Suite("Model uncertainty: draws of the iOS model's uncertain numbers, and what a decision hangs on")
struct ModelUncertaintyTests {
    static let uncertainty = ModelUncertainty.standard

    @Test("every uncertain number of the iOS model is drawn, inside its plausible range, the same for a seed every time and different across seeds")
    func draws() throws {
        let parameters = Self.uncertainty.parameters
        #expect(parameters.map(\.path) == Scenario.uncertainNumberRows.map(\.path) && parameters.count >= 35)
        #expect(parameters.allSatisfy { $0.path.hasPrefix("system.") })
        let first = Self.uncertainty.draw(seed: 7)
        #expect(first == Self.uncertainty.draw(seed: 7))
        #expect(first != Self.uncertainty.draw(seed: 8))
        for seed in UInt64(1)...200 {
            for (parameter, value) in zip(parameters, Self.uncertainty.draw(seed: seed)) {
                #expect(parameter.plausible.contains(value), "\(parameter.path) = \(value)")
                if parameter.isWholeNumber { #expect(value == value.rounded()) }
            }
        }
    }

    @Test("a range spanning a factor of three or more is drawn on the logarithm: the budget's 50–500 J/day has its median near √(50 × 500) ≈ 158, not 275")
    func logarithmicDraws() throws {
        let index = try #require(Self.uncertainty.parameters.firstIndex { $0.path == "system.budget.energyJoulesPerDay" })
        #expect(Self.uncertainty.parameters[index].isLogarithmic)
        let values = (UInt64(1)...2_000).map { Self.uncertainty.draw(seed: $0)[index] }.sorted()
        let median = values[values.count / 2]
        // The sample median of 2,000 draws lies, with 99.9 % probability, between the 0.463 and
        // 0.537 quantiles (0.5 ± 3.29 × √(0.25 / 2,000)): 50 × 10^0.463 = 145 to 50 × 10^0.537 = 172.
        #expect(median > 145 && median < 172, "\(median)")
        // 15–30 min spans a factor of two: drawn uniformly.
        let linear = try #require(Self.uncertainty.parameters.first { $0.path == "system.heuristic.refreshMinimumSpacingMinutes" })
        #expect(!linear.isLogarithmic)
    }

    @Test("a draw applied to a scenario sets each number at its path and keeps the scenario's name and policy, one given in Swift too; two scenarios get the same iOS")
    func applying() throws {
        let values = Self.uncertainty.draw(seed: 3)
        let index = try #require(Self.uncertainty.parameters.firstIndex { $0.path == "system.heuristic.refreshBasePerDay" })
        for name in ["coverdrop-designed", "zashi-shipped"] {
            let scenario = try #require(Presets.scenario(named: name))
            let varied = try Self.uncertainty.applying(values, to: scenario)
            #expect(varied.name == scenario.name)
            #expect(varied.system.heuristic.refreshBasePerDay == values[index])
            #expect(varied.app == scenario.app && varied.user == scenario.user)
        }
        // A policy given in Swift, which no registry knows by name, is kept.
        let mine = try #require(Presets.scenario(named: "coverdrop-shipped")).running("mine") { CoverDropShipped(parameters: CoverDropShippedParameters()) }
        let varied = try Self.uncertainty.applying(values, to: mine)
        #expect(varied.app.policy.name == "mine" && varied.app.policy.definition != nil)
        #expect(varied.system.heuristic.refreshBasePerDay == values[index])
    }

    @Test("a number the compared scenarios differ in is what they compare: each keeps its own, the rest are drawn as before")
    func differingNumbersAreKept() throws {
        let base = try #require(Presets.scenario(named: "coverdrop-shipped"))
        var other = base
        other.system.heuristic.refreshBasePerDay = 2.5
        let fixed = Self.uncertainty.fixing(Self.uncertainty.pathsDiffering(among: [base, other]))
        #expect(fixed.fixedPaths == ["system.heuristic.refreshBasePerDay"])
        #expect(fixed.varied.count == Self.uncertainty.parameters.count - 1)
        let values = fixed.draw(seed: 5)
        #expect(values == Self.uncertainty.draw(seed: 5))
        let perSession = try #require(Self.uncertainty.parameters.firstIndex { $0.path == "system.heuristic.refreshPerAppSession" })
        for (scenario, own) in [(base, 1.0), (other, 2.5)] {
            let varied = try fixed.applying(values, to: scenario)
            #expect(varied.system.heuristic.refreshBasePerDay == own)
            #expect(varied.system.heuristic.refreshPerAppSession == values[perSession])
        }
    }

    @Test("a sweep or tuning file's \"modelUncertainty\": true draws every uncertain number but its axes', its fingerprints change with it, and anything but a Boolean is refused")
    func sweepsAndTuning() throws {
        func sweep(_ extra: String) throws -> SweepDefinition {
            try SweepDefinition.decode(#"{"preset": "coverdrop-shipped", "axes": [{"path": "system.heuristic.refreshBasePerDay", "values": [1, 2]}]"# + extra + "}",
                                       source: "s.json")
        }
        let plain = try sweep(""), uncertain = try sweep(#", "modelUncertainty": true"#)
        #expect(plain.modelUncertainty == nil)
        #expect(uncertain.modelUncertainty?.fixedPaths == ["system.heuristic.refreshBasePerDay"])
        #expect(SweepFingerprint.sweep(plain) != SweepFingerprint.sweep(uncertain))
        #expect(try SweepFingerprint.cell(0, of: plain, source: "s") != SweepFingerprint.cell(0, of: uncertain, source: "s"))
        #expect(SweepFingerprint.sweep(plain) == SweepFingerprint.sweep(try sweep(#", "modelUncertainty": false"#)))
        #expect(throws: ScenarioError.self) { try sweep(#", "modelUncertainty": "yes""#) }
        let tune = try TuneDefinition.decode(#"{"preset": "coverdrop-shipped", "parameters": [{"path": "app.policy.parameters.meanDelayMinutes", "values": [10, 40]}], "#
                                             + #""objective": {"minimize": "work.allItemsLatencyMinutes.p90"}, "indifferenceZone": 30, "modelUncertainty": true}"#,
                                             source: "t.json")
        #expect(tune.stage(1, seeds: 0..<10).modelUncertainty?.fixedPaths == ["app.policy.parameters.meanDelayMinutes"])
    }

    /// One-day runs whose seeds carry the arm: B's seeds are A's plus `offset`.
    static let offset: UInt64 = 1_000_000

    /// A comparison of A and B on 200 seeds whose "latency" is 2 for A and `b(draw)` for B, under
    /// model uncertainty, minimising latency.
    func comparison(_ b: @escaping @Sendable ([Double]) -> Double) throws -> (Comparison, Objective) {
        let seeds = Array(UInt64(1)...200)
        let uncertainty = Self.uncertainty
        let latency = ComparedMetric(key: "latency", label: "latency", unit: "min", margin: 0.01, better: .lower) { result in
            // A little noise, so that no difference is exactly constant.
            let noise = Double(result.seed % 7) * 0.001
            return result.seed < Self.offset ? 2 + noise : b(uncertainty.draw(seed: result.seed - Self.offset)) + noise
        }
        let a = try Replications.run(Scenario(), seeds: seeds, days: 1, jobs: 2)
        let bRuns = try Replications.run(Scenario(), seeds: seeds.map { $0 + Self.offset }, days: 1, jobs: 2)
        var comparison = Comparison(names: ["A", "B"], seeds: seeds, days: 1, results: [a, bRuns], metrics: [latency])
        comparison.modelUncertainty = uncertainty
        return (comparison, Objective(.minimize, latency))
    }

    @Test("B's latency is the drawn refresh base budget (0.5–3, mean 1.4) against A's 2: B is recommended, the budget ranks first, and the top quarter (above 2) flips the decision to A")
    func dependsOnTheModel() throws {
        let index = try #require(Self.uncertainty.parameters.firstIndex { $0.path == "system.heuristic.refreshBasePerDay" })
        let (comparison, objective) = try comparison { $0[index] }
        #expect(comparison.recommendation(objective).choice == 1)
        let sensitivity = try #require(comparison.sensitivity(objective))
        #expect(sensitivity.entries.first?.path == "system.heuristic.refreshBasePerDay")
        #expect((sensitivity.entries.first?.strength ?? 0) > 0.95)
        #expect((sensitivity.entries.dropFirst().first?.strength ?? 1) < 0.3, "every other number correlates by chance only")
        #expect(sensitivity.line.hasPrefix("Depends on the model: with heuristic.refreshBasePerDay drawn in "), "\(sensitivity.line)")
        #expect(sensitivity.line.contains("the recommendation is A, not B"), "\(sensitivity.line)")
        let top = try #require(sensitivity.quarters.first { $0.path == "system.heuristic.refreshBasePerDay" && $0.choice == 0 })
        #expect(top.values.lowerBound > 1.9 && top.values.upperBound <= 3 && top.confident)
    }

    @Test("B's latency is 1 whatever iOS does: every quarter holds, which is not 'Robust' until a break-even search finds no point in any range; then it is")
    func robust() throws {
        var (comparison, objective) = try comparison { _ in 1 }
        let quartersOnly = try #require(comparison.sensitivity(objective))
        #expect(quartersOnly.choice == 1)
        #expect(quartersOnly.verdict == .holdsInEveryQuarter)
        #expect(quartersOnly.line.hasPrefix("Holds in every quarter: the recommendation (B) is the same, confidently"), "\(quartersOnly.line)")
        #expect(quartersOnly.line.contains("was not searched"))
        #expect(quartersOnly.quarters.count == 4 * Sensitivity.testedNumbers && quartersOnly.quarters.allSatisfy { $0.choice == 1 })
        // A search over the three numbers that found B recommended at every value probed.
        let probes = [0.0, 0.5, 1].map { BreakEven.Probe(value: $0, choice: 1, confident: true, advantage: 1, costs: [2, 1]) }
        comparison.breakEvens = quartersOnly.entries.prefix(Sensitivity.testedNumbers).map { entry in
            BreakEven(path: entry.path, plausible: entry.plausible, scenarioValue: entry.plausible.lowerBound, others: .atDefaults, probes: probes)
        }
        comparison.breakEvensSearched = true
        let searched = try #require(comparison.sensitivity(objective))
        #expect(searched.verdict == .robust)
        #expect(searched.line.hasPrefix("Robust: the recommendation (B) holds across the plausible model"), "\(searched.line)")
        #expect(searched.line.hasSuffix("and it changes nowhere in their plausible ranges, the others at their defaults or drawn"))
        // One point inside a range where A is then confidently better: it depends on the model.
        comparison.breakEvens[0].above = BreakEven.Point(holdsAt: 0.5, changesAt: 1, choice: 0, confident: true)
        #expect(try #require(comparison.sensitivity(objective)).verdict == .dependsOnTheModel)
    }

    @Test("a known break-even point: B's cost is the battery's health (plausible 0.6–1), A's 0.73; the search finds it between 0.7 and 0.75, both ways, and the line is not 'Robust'")
    func knownBreakEven() throws {
        // The runs' battery capacity carries the health each probe set; A's cost is fixed.
        let full = Scenario().device.batteryCapacityJoules
        let cost = ComparedMetric(key: "cost", label: "cost", unit: "J", margin: 0, better: .lower) { result in
            let noise = (Double(result.seed % 3) - 1) * 0.001
            return (result.scenarioName == "A" ? 0.73 : result.energy.batteryCapacityJoules / full) + noise
        }
        var a = Scenario(), b = Scenario()
        a.name = "A"
        b.name = "B"
        let scenarios = [(name: "A", scenario: a), (name: "B", scenario: b)]
        let health = ModelUncertainty(parameters: [.init(path: "device.batteryHealth", plausible: 0.6...1, isWholeNumber: false)])
        let objective = Objective(.minimize, cost)
        var comparison = try Comparison.run(scenarios, seeds: Array(1...8), days: 1, jobs: 2, metrics: [cost], objective: objective,
                                            modelUncertainty: health)
        // Drawn over 0.6–1, B's cost averages about 0.8: A is recommended on all seeds.
        #expect(comparison.recommendation(objective).choice == 0)
        comparison = try comparison.findingBreakEvens(of: scenarios, objective: objective, jobs: 2)
        #expect(comparison.breakEvens.map(\.others) == [.atDefaults, .drawn])
        for breakEven in comparison.breakEvens {
            // The scenario's health is 1: it holds above, and changes below.
            #expect(breakEven.scenarioValue == 1 && breakEven.above == nil)
            let below = try #require(breakEven.below)
            #expect(below.holdsAt == 0.75 && below.changesAt == 0.7, "\(below)")
            #expect(below.choice == 1 && below.confident)
            // The probes: 1, the middle 0.8, the end 0.6, then bisection 0.7, 0.75.
            #expect(breakEven.probes.map(\.value) == [0.6, 0.7, 0.75, 0.8, 1])
            #expect(breakEven.probes.allSatisfy { (($0.advantage ?? 0) > 0) == ($0.value > 0.73) })
        }
        let sensitivity = try #require(comparison.sensitivity(objective))
        // The least maximum regret over the 10 values probed: A is at most 0.73 − 0.6 = 0.13 behind
        // (at health 0.6), B at most 1 − 0.73 = 0.27 (at health 1).
        let robust = try #require(sensitivity.robustChoice)
        #expect(robust.choice == 0 && robust.probes == 10)
        #expect(abs((robust.maximumRegret ?? 0) - 0.13) < 1e-9, "\(robust)")
        #expect(RobustChoice.choose(arms: 2, breakEvens: []) == nil)
        let line = sensitivity.line
        #expect(line.hasPrefix("Depends on the model: holds unless device.batteryHealth < 0.75 (plausible down to 0.6; "
                               + "the others at their defaults): at 0.7 B, confidently"), "\(line)")
        comparison.objective = objective
        #expect(ComparisonFormatter.table(comparison).contains("Break-even points (the recommendation on all seeds: A;"))
        #expect(ComparisonFormatter.table(comparison).contains("Robust choice (least maximum regret over the 10 values the break-even "
                                                               + "search probed): A, within the bounds at every value probed and at "
                                                               + "most 0.13 J behind the best there; the recommendation too."))
        #expect(JSONWriter.pretty(ComparisonFormatter.json(comparison)).contains("\"breakEvens\""))
        #expect(ComparisonReport.html(comparison).contains("id=\"break-even-device-batteryHealth\""))
    }

    @Test("the robust choice by hand: the least maximum regret among the arms that meet the bounds at every value probed")
    func robustChoiceByHand() {
        func probe(_ costs: [Double?]) -> BreakEven.Probe { BreakEven.Probe(value: 0, choice: nil, confident: false, costs: costs) }
        func search(_ probes: [BreakEven.Probe]) -> BreakEven {
            BreakEven(path: "x", plausible: 0...1, scenarioValue: 0, others: .atDefaults, probes: probes)
        }
        // Arm 0 is best twice, then 5 behind; arm 1 is 2 behind twice, best once; arm 2 is best
        // once but misses a bound at the second value.
        let mixed = search([probe([1, 3, 0.5]), probe([1, 3, nil]), probe([10, 5, 6])])
        let choice = RobustChoice.choose(arms: 3, breakEvens: [mixed])
        // Regrets: arm 0 max(0.5, 0, 5) = 5; arm 1 max(2.5, 2, 0) = 2.5; arm 2 excluded.
        #expect(choice == RobustChoice(choice: 1, maximumRegret: 2.5, probes: 3))
        // No arm meets the bounds everywhere: no robust choice.
        let none = RobustChoice.choose(arms: 2, breakEvens: [search([probe([nil, 1]), probe([1, nil])])])
        #expect(none?.choice == nil && none?.line(names: ["A", "B"], unit: "min", recommended: 0).hasSuffix("none: every arm misses a bound at some value probed") == true)
    }

    @Test("every format says it: the table and Markdown the line and the ranking, CSV the line, JSON the parameters, line and quarters, HTML a section with the chart")
    func everyFormat() throws {
        let index = try #require(Self.uncertainty.parameters.firstIndex { $0.path == "system.heuristic.refreshBasePerDay" })
        var (comparison, objective) = try comparison { $0[index] }
        comparison.objective = objective
        let line = try #require(comparison.sensitivity(objective)).line
        #expect(ComparisonFormatter.table(comparison).contains(line + "."))
        #expect(ComparisonFormatter.table(comparison).contains("  system.heuristic.refreshBasePerDay (0.5–3): 1"))
        #expect(ComparisonFormatter.markdown(comparison).contains("**\(line).**"))
        #expect(ComparisonFormatter.csv(comparison).contains("# " + line))
        let json = JSONWriter.pretty(ComparisonFormatter.json(comparison))
        #expect(json.contains("\"modelUncertainty\"") && json.contains("\"quarters\"") && json.contains("system.budget.energyJoulesPerDay"))
        let html = ComparisonReport.html(comparison)
        #expect(html.contains("Under model uncertainty") && html.contains("id=\"sensitivity\""))
        #expect(html == ComparisonReport.html(comparison), "the same comparison gives the same bytes")
    }

    @Test("Spearman's ρ by hand: a monotone relation is 1, a reversed one −1, ties take their mean rank")
    func spearman() {
        #expect(Sensitivity.spearman([1, 2, 3, 4], [10, 20, 35, 1_000]) == 1)
        #expect(Sensitivity.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == -1)
        // x ranks 1, 2, 3, 4; y = 1, 1, 2, 2 ranks 1.5, 1.5, 3.5, 3.5: ρ = 4 / √(5 × 4) = 0.894…
        #expect(abs(Sensitivity.spearman([1, 2, 3, 4], [1, 1, 2, 2]) - 4 / 20.0.squareRoot()) < 1e-12)
        #expect(Sensitivity.spearman([1, 2], [2, 1]) == 0)
    }

    @Test("a sweep under model uncertainty with an objective ranks the numbers its recommendation hangs on, in every format, the same bytes twice")
    func sweepSensitivity() throws {
        let text = """
            {"name": "u", "preset": "coverdrop-shipped", "seeds": 16, "days": 10, "modelUncertainty": true,
             "axes": [{"path": "app.policy.parameters.minimumRunIntervalMinutes", "values": [15, 120]}],
             "objective": {"minimize": "energy.appJoulesPerDay"}}
            """
        func summary() throws -> SweepSummary {
            let definition = try SweepDefinition.decode(text, source: "u.json")
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-uncertainty-\(UUID().uuidString).jsonl").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            return try SweepSummary(definition: definition, results: SweepRunner.run(definition, source: "u.json", jobs: 2, outputPath: path))
        }
        let first = try summary()
        let sensitivity = try #require(first.sensitivity)
        // The axis is what the cells differ in: it is not drawn, so it is not ranked.
        #expect(sensitivity.entries.count == ModelUncertainty.standard.parameters.count)
        #expect(!sensitivity.entries.contains { $0.path == "app.policy.parameters.minimumRunIntervalMinutes" })
        #expect(sensitivity.quarters.count == 4 * Sensitivity.testedNumbers && sensitivity.quarters.allSatisfy { $0.seeds == 4 })
        // A sweep searches no break-even point, so it never says "Robust".
        #expect([.holdsInEveryQuarter, .dependsOnTheModel, .unsettled].contains(sensitivity.verdict), "\(sensitivity.line)")
        // Sending at most every two hours costs less than every quarter hour, whatever iOS does.
        #expect(sensitivity.choice == 1)
        #expect(first.table.contains(sensitivity.line + "."))
        #expect(SweepFormatter.markdown(first).contains("## Under model uncertainty") && SweepFormatter.markdown(first).contains("**\(sensitivity.line).**"))
        #expect(JSONWriter.pretty(SweepFormatter.json(first)).contains("\"quarters\""))
        let html = SweepReport.html(first)
        #expect(html.contains("id=\"model-uncertainty\"") && html.contains("id=\"sensitivity\""))
        #expect(try SweepReport.html(summary()) == html, "the same sweep gives the same bytes")
    }

    @Test("a tuning under model uncertainty ranks the numbers the choice among its finalists hangs on; with one finalist it says why there is no ranking")
    func tuningSensitivity() throws {
        let (configurations, objective) = try TuningProcedureTests.intervalConfigurations()
        var procedure = TuningProcedure(objective: objective, indifferenceZone: 1)
        // N capped at n₀: the first look is the last, so both configurations are finalists.
        procedure.firstStageSeeds = 8
        procedure.maximumSeeds = 8
        let tuning = try Tuning.run(configurations, procedure: procedure, days: 10, jobs: 2, modelUncertainty: .standard)
        #expect(tuning.finalists == [0, 1])
        let sensitivity = try #require(tuning.sensitivity)
        #expect(sensitivity.choice == 1 && sensitivity.quarters.count == 4 * Sensitivity.testedNumbers)
        #expect(TuningFormatter.table(tuning, name: "t").contains(sensitivity.line + "."))
        #expect(TuningFormatter.markdown(tuning, name: "t").contains("## Under model uncertainty"))
        #expect(JSONWriter.pretty(TuningFormatter.json(tuning, name: "t")).contains("\"quarters\""))
        #expect(TuningReport.html(tuning, name: "t", axes: ["interval"], values: [[.number(15)], [.number(120)]]).contains("id=\"sensitivity\""))
        // One finalist: no ranking, and the reason.
        var single = tuning
        single.outcome.seedsRun = [4, 8]
        #expect(single.sensitivity == nil)
        #expect(TuningFormatter.table(single, name: "t").contains("Sensitivity: the ranking needs two finalists"))
    }

    @Test("a scenario's plausible ranges are checked: a number without a plausible range, a repeat, ends out of order or outside the valid range")
    func plausibleRangesChecked() throws {
        func issues(_ ranges: String) -> [String] {
            do {
                _ = try ScenarioLoader.decode(#"{"plausible": ["# + ranges + "]}", source: "s.json")
                return []
            } catch { return error.issues.map { "\($0.path): \($0.message)" } }
        }
        #expect(issues(#"{"path": "system.heuristic.refreshBasePerDay", "low": 0.8, "high": 1.4}"#).isEmpty)
        #expect(issues(#"{"path": "user.sessionsPerDay", "low": 1, "high": 2}"#).first?.hasPrefix("plausible[0].path: expected one of the iOS model's uncertain numbers") == true)
        #expect(issues(#"{"path": "system.heuristic.refreshBasePerDay", "low": 2, "high": 1}"#) == ["plausible[0]: expected low ≤ high, got 2.0 and 1.0"])
        #expect(issues(#"{"path": "system.heuristic.refreshBasePerDay", "low": 0.8, "high": 1.4}, {"path": "system.heuristic.refreshBasePerDay", "low": 1, "high": 2}"#)
                == ["plausible[1].path: system.heuristic.refreshBasePerDay is given twice"])
        #expect(issues(#"{"path": "system.heuristic.refreshBasePerDay", "low": -1, "high": 1}"#).first?.contains("valid range") == true)
        #expect(issues(#"{"path": "system.heuristic.refreshBasePerDay", "lo": 1, "high": 2}"#).first?.hasPrefix("plausible[0].lo: unknown key") == true)
    }

    @Test("a calibrated fragment's plausible ranges narrow what each seed draws, for every scenario it is laid over")
    func calibratedRangesNarrowTheDraws() throws {
        // The fragment bgsim calibrate wrote from simulated field logs (experiments/calibrate-to-users).
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let fragment = root.appendingPathComponent("experiments/calibrate-to-users/coverdrop.fitted.json").path
        let scenarios = try ["coverdrop-designed", "coverdrop-shipped"].map { name in
            (name: name, scenario: try ScenarioLoader.overlay(path: fragment, over: try #require(Presets.scenario(named: name))))
        }
        let ranges = scenarios[0].scenario.plausible
        #expect(ranges.count == 3 && ranges.contains { $0.path == "system.heuristic.refreshBasePerDay" })
        let comparison = try Comparison.run(scenarios, seeds: Array(1...8), days: 1, jobs: 2, modelUncertainty: .standard)
        let uncertainty = try #require(comparison.modelUncertainty)
        for range in ranges {
            let index = try #require(uncertainty.parameters.firstIndex { $0.path == range.path })
            #expect(uncertainty.parameters[index].plausible == range.low...range.high)
            #expect(comparison.seeds.allSatisfy { (range.low...range.high).contains(uncertainty.draw(seed: $0)[index]) })
        }
        // Numbers the logs do not inform keep their standard ranges.
        let standard = ModelUncertainty.standard
        let other = try #require(standard.parameters.firstIndex { $0.path == "system.push.deviceBudgetPerHour" })
        #expect(uncertainty.parameters[other] == standard.parameters[other])
    }

    @Test("a what-if under model uncertainty ranks what the typical cell's app battery use follows, and tests which scenario uses least; one scenario has no decision to test")
    func whatIfSensitivity() throws {
        let grid = WhatIfGrid(dimensions: [WhatIfGrid.Dimension(name: "network", levels: [
            .init(name: "typical mix", settings: []),
            .init(name: "mostly Wi-Fi", settings: [("network.wifiShare", .number(0.75))]),
        ], typical: 0)])
        let scenarios = try ["coverdrop-designed", "coverdrop-shipped"].map { (name: $0, scenario: try #require(Presets.scenario(named: $0))) }
        let study = try WhatIfStudy.run(scenarios, grid: grid, seeds: Array(1...8), days: 5, jobs: 2, modelUncertainty: .standard)
        let sensitivity = try #require(study.sensitivity)
        #expect(sensitivity.entries.count == ModelUncertainty.standard.parameters.count)
        #expect(sensitivity.quarters.count == 4 * Sensitivity.testedNumbers)
        // The design sends only when there is something to send: it uses less battery whatever iOS does.
        #expect(sensitivity.choice == 0)
        #expect(WhatIfFormatter.table(study).contains(sensitivity.line + "."))
        #expect(WhatIfFormatter.markdown(study).contains("## Under model uncertainty"))
        #expect(JSONWriter.pretty(WhatIfFormatter.json(study)).contains("\"quarters\""))
        #expect(WhatIfReport.html(study).contains("id=\"sensitivity\""))
        let one = try WhatIfStudy.run([scenarios[0]], grid: grid, seeds: Array(1...8), days: 5, jobs: 2, modelUncertainty: .standard)
        let alone = try #require(one.sensitivity)
        #expect(alone.quarters.isEmpty && alone.line.hasPrefix("One scenario, so no decision to test"))
        #expect(alone.entries.first.map { $0.correlations.count == 1 } == true)
    }
}
