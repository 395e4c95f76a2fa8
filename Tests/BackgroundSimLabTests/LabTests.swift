import BackgroundSim
@testable import BackgroundSimLab
import Testing

@Suite("Replications and statistics")
struct ReplicationTests {
    @Test("results are identical for 1 and N jobs, in seed order")
    func jobsDoNotMatter() throws {
        let scenario = Presets.scenario(named: "proton-upload-designed")!
        let seeds: [UInt64] = [5, 1, 9, 3, 7, 2]
        let one = try Replications.run(scenario, seeds: seeds, days: 20, jobs: 1)
        let four = try Replications.run(scenario, seeds: seeds, days: 20, jobs: 4)
        #expect(one == four)
        #expect(one.map(\.seed) == seeds)
        #expect(Set(one.map(\.digest)).count == seeds.count)
    }

    @Test("every numeric field of the report is summarised across seeds, in the report's order; the readable table puts the work and energy first")
    func replicationSummary() throws {
        let seeds: [UInt64] = [3, 4, 5]
        let results = try Replications.run(Presets.scenario(named: "zashi-designed")!, seeds: seeds, days: 10, jobs: 2)
        let summary = ReplicationSummary(results)
        #expect(summary.seeds == seeds)
        var leaves: [(String, Double?)] = []
        for group in ["device", "os", "metricKit", "work", "energy"] {
            ReplicationSummary.collect(ReportFormatter.json(results[0])[group]!, path: group, into: &leaves)
        }
        #expect(summary.rows.map(\.path) == leaves.map(\.0))
        #expect(summary.rows.contains { $0.path == "os.launchHourHistogram[23]" })
        #expect(summary.rows.contains { $0.path == "energy.byComponent.radioTail" })
        let screen = try #require(summary.rows.first { $0.path == "device.screenOnHoursPerDay" })
        let values = results.map { r -> Double in
            guard case .number(let v)? = ReportFormatter.json(r)["device"]?["screenOnHoursPerDay"] else { return .nan }
            return v
        }
        #expect(screen.summary == SampleSummary(values))
        #expect(screen.summary.count == 3 && screen.summary.standardDeviation > 0)
        // The readable table puts the work and its energy first, then the system, the phone and
        // MetricKit; within a group, the report's order.
        let fields = summary.table.split(separator: "\n").dropFirst(2).map { String($0.prefix { $0 != " " }) }
        let groups = fields.map { String($0.prefix { $0 != "." }) }
        #expect(groups.first == "work" && groups.last == "metricKit")
        #expect(groups.map { ReplicationSummary.tableGroupOrder.firstIndex(of: $0)! } == groups.map { ReplicationSummary.tableGroupOrder.firstIndex(of: $0)! }.sorted())
        #expect(fields.filter { $0.hasPrefix("work.") } == summary.rows.map(\.path).filter { $0.hasPrefix("work.") })
    }

    @Test("Student's t critical values match the tables", arguments: [
        (1, 12.706205), (2, 4.302653), (9, 2.262157), (30, 2.042272), (40, 2.021075), (60, 2.000298), (120, 1.979930),
    ])
    func tQuantiles(df: Int, expected: Double) {
        #expect(abs(StudentT.quantile975(degreesOfFreedom: df) - expected) < 2e-5, "df \(df)")
    }

    @Test("a summary's mean, standard deviation and interval match a hand calculation")
    func summaryArithmetic() {
        let summary = SampleSummary([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(summary.mean == 5)
        // Sum of squares 32, n − 1 = 7.
        #expect(abs(summary.standardDeviation - (32.0 / 7).squareRoot()) < 1e-12)
        #expect(abs(summary.halfWidth95 - 2.364624 * (32.0 / 7).squareRoot() / 8.0.squareRoot()) < 1e-6)
        #expect(summary.median == 4.5)
        #expect(SampleSummary([3]).halfWidth95 == 0)
    }
}

@Suite("Comparison")
struct ComparisonTests {
    @Test("pairing narrows the intervals on a preset: the same user, charging and network on both sides")
    func pairingNarrows() throws {
        var variant = Presets.scenario(named: "proton-upload-designed")!
        var parameters = ProtonUploadDesignedParameters()
        parameters.restartOnForeground = true
        variant.app.policy.parameters = parameters
        let comparison = try Comparison.run(
            [("proton-upload-designed", Presets.scenario(named: "proton-upload-designed")!), ("restart", variant)],
            seeds: Array(1...12), days: 30, jobs: 2)
        let drawn = try #require(comparison.rows.first { $0.metric.key == "device.batteryDrainPercentPerDay" })
        let narrowing = try #require(comparison.narrowing(drawn, candidate: 1))
        #expect(narrowing > 0.5, "paired half-width \(drawn.differences[0].halfWidth95), unpaired \(drawn.unpairedHalfWidths[0])")
        let energy = try #require(comparison.rows.first { $0.metric.key == "energy.appJoulesPerDay" })
        #expect(energy.differences[0].halfWidth95 < energy.unpairedHalfWidths[0])
    }

    @Test("the text table neither cuts nor glues columns: long names, tiny and huge numbers, every column aligned",
          arguments: [["baseline", String(repeating: "a-candidate-with-a-very-long-name-", count: 2) + "end", "c"], ["A", "B", "C"]])
    func tableColumns(names: [String]) throws {
        let tiny = ComparedMetric(key: "t", label: "tiny", unit: "J", better: .lower) { Double($0.seed) * 1e-9 }
        let huge = ComparedMetric(key: "h", label: "a huge figure with a long label", unit: "items/day", better: .lower) {
            Double($0.seed) * 123_456_789_012.5
        }
        let base = try Replications.run(Scenario(), seeds: [1, 2, 3], days: 1, jobs: 1)
        let other = try Replications.run(Scenario(), seeds: [7, 9, 13], days: 1, jobs: 1)
        let comparison = Comparison(names: names, seeds: [1, 2, 3], days: 1, results: [base, other, base], metrics: [tiny, huge])
        let lines = ComparisonFormatter.table(comparison).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header = lines[try #require(lines.firstIndex { $0.hasPrefix("Comparison over") }) + 2]
        // Each name whole, each column starting where its name starts.
        var starts: [Int] = []
        var from = header.startIndex
        for name in names {
            let range = try #require(header.range(of: name, range: from..<header.endIndex))
            starts.append(range.lowerBound.utf16Offset(in: header))
            from = range.upperBound
        }
        for row in lines.filter({ $0.hasPrefix("tiny") || $0.hasPrefix("a huge figure") }) {
            let cells = starts.enumerated().map { index, start -> String in
                let characters = Array(row.utf16)
                #expect(characters.count > start, "\(row)")
                #expect(start == 0 || characters[start - 1] == 32 && characters[start - 2] == 32, "two spaces before column \(index): \(row)")
                let end = index + 1 < starts.count ? starts[index + 1] : characters.count
                return String(utf16CodeUnits: Array(characters[start..<end]), count: end - start).trimmingCharacters(in: .whitespaces)
            }
            // Whole cells: "mean ± half-width", each number unabridged.
            for cell in cells { #expect(cell.contains(" ± ") && !cell.hasSuffix("±"), "\(cell) in \(row)") }
        }
        // The baseline's means, whole: 2 × 10⁻⁹ J and 2 × 123,456,789,012.5 items/day.
        #expect(lines.contains { $0.hasPrefix("tiny") && $0.contains("0.000000002 ± ") })
        #expect(lines.contains { $0.hasPrefix("a huge figure") && $0.contains("246913578025 ± ") })
    }

    @Test("verdicts state direction, size and interval by hand, an inconclusive difference, or that nothing differs")
    func verdicts() throws {
        // Hand-made results. Latency: candidate − base per seed = −10, −10, −10, −9: mean −9.75,
        // sd 0.5, se 0.25, t(0.975, 3) = 3.1824 → half-width 0.7956 → 8.95 to 10.5 lower; the
        // baseline's mean is 101.5, so 9.75 ÷ 101.5 = 9.61 % relative.
        // Noise: 0, 0, 0, −1: mean −0.25, the same half-width → −1.05 to +0.546, spanning 0.
        let metric = ComparedMetric(key: "x", label: "p90 work latency", unit: "min", better: .lower) { Double($0.seed) }
        let noise = ComparedMetric(key: "y", label: "noise", unit: "", better: .lower) { Double($0.seed % 2) }
        let constant = ComparedMetric(key: "z", label: "constant", unit: "", better: .lower) { _ in 1 }
        let base = try Replications.run(Scenario(), seeds: [100, 101, 102, 103], days: 1, jobs: 1)
        let candidate = try Replications.run(Scenario(), seeds: [90, 91, 92, 94], days: 1, jobs: 1)
        let comparison = Comparison(names: ["A", "B"], seeds: [1, 2, 3, 4], days: 1, results: [base, candidate],
                                    metrics: [metric, noise, constant])
        // With no margins (0), t = 9.75 / 0.25 = 39 on 3 degrees of freedom: p ≈ 4e-5, × 3 claims
        // by Holm (one per metric with a zero margin) is still below 0.001.
        #expect(comparison.verdict(comparison.rows[0], candidate: 1)
                == "B: p90 work latency 9.75 min lower (9.61 % relative; 95 % CI 8.95–10.5) — better (Holm-adjusted p < 0.001)")
        #expect(comparison.verdict(comparison.rows[1], candidate: 1)
                == "B: noise 0.25 lower (50 % relative; 95 % CI -1.05 to +0.546) — inconclusive: about 44 seeds would decide (here 4; margin ±0)")
        // 0.25 = 2.8016 · 0.5 / √n + 3.2055 · 0.5 / n (SeedsToDecide: 80 % power, plus the skewness
        // allowance's K = 3 (2 · 1.645² + 1) / 6): √n = 1 / 0.15204, n = 43.3, the seeds that would
        // give a real difference of 0.25 an 80 % chance.
        // The constant is 1 on every seed of both: no difference on any seed. With the default
        // margin of 0 that shows nothing (a difference on a few users could hide); with a margin
        // of 2 min no seed could differ by more (every value is within 1 of zero).
        #expect(comparison.verdict(comparison.rows[2], candidate: 1)
                == "B: constant the same on every seed — inconclusive: with a zero margin, no number of seeds without a difference shows there is none")
        var bounded = constant
        bounded.margin = 2
        bounded.unit = "min"
        let settled = Comparison(names: ["A", "B"], seeds: [1, 2, 3, 4], days: 1, results: [base, candidate], metrics: [bounded])
        #expect(settled.verdict(settled.rows[0], candidate: 1)
                == "B: constant the same on every seed — equivalent: no seed could differ by more than ±2 min (every value within 1 min of zero)")
        // The JSON carries each scenario's value on each seed, from which the figures come.
        guard case .array(let metrics)? = ComparisonFormatter.json(comparison)["metrics"] else {
            Issue.record("no metrics in the JSON")
            return
        }
        #expect(metrics[0]["perSeed"] == .array([.array([100, 101, 102, 103].map { .number($0) }),
                                                .array([90, 91, 92, 94].map { .number($0) })]))
        // A percentage's difference is in percentage points.
        let share = ComparedMetric(key: "s", label: "work completed", unit: "%", better: .higher) { Double($0.seed) }
        let shares = Comparison(names: ["A", "B"], seeds: [1, 2, 3, 4], days: 1, results: [base, candidate], metrics: [share])
        #expect(shares.verdict(shares.rows[0], candidate: 1)
                == "B: work completed 9.75 points lower (9.61 % relative; 95 % CI 8.95–10.5) — worse (Holm-adjusted p < 0.001)")
        #expect(ComparedMetric(key: "b", label: "b", unit: "%/day", better: .lower) { _ in 0 }.differenceUnit == "points/day")
    }
}
