import BackgroundSim
import Foundation

/// A sweep: a base scenario, axes of parameter values, the seeds and days each cell runs, and
/// the objectives to trade off.
///
///     {
///       "name": "coverdrop-delays",
///       "preset": "coverdrop-designed",
///       "axes": [
///         { "path": "app.policy.parameters.meanDelayMinutes", "values": [10, 30, 60] },
///         { "path": "app.policy.parameters.messagesPerRun", "values": [1, 5] }
///       ],
///       "seeds": 20, "days": 90,
///       "objectives": ["work.allItemsLatencyMinutes.p90", "energy.appBatteryPercentPerDay"],
///       "objective": { "minimize": "work.allItemsLatencyMinutes.p90",
///                      "subjectTo": ["energy.appBatteryPercentPerDay<=0.05"] }
///     }
///
/// Cells are the axes' cartesian product, the first axis varying slowest. Every cell runs the
/// same seeds (common random numbers across cells).
package struct SweepDefinition: Sendable {
    package struct Axis: Sendable {
        /// A scenario parameter's path, as in validation messages (`app.policy.parameters.meanDelayMinutes`).
        package var path: String
        package var values: [JSONValue]
    }

    package var name: String
    /// The base scenario as a document (a preset's, or the inline `scenario`), with any
    /// fragments laid over it (``fragments``).
    package var base: JSONValue
    /// The fragments laid over the base (`--with`), named in a cell's messages: a cell whose
    /// values break a relation with a fragment's is the fragment's problem as much as the file's.
    package var fragments: [String] = []
    package var axes: [Axis]
    package var seeds: [UInt64]
    package var days: Int
    /// Two of ``metrics`` to trade off.
    package var objectives: [ComparedMetric]
    /// Every metric a cell's line holds: ``ComparedMetric/standard`` and the app's own metrics
    /// the base scenario declares (`app.metrics`).
    package var metrics: [ComparedMetric] = ComparedMetric.standard
    /// What to optimise, if said (the file's `objective`, or `--minimize`/`--maximize`): the
    /// summary then starts with one recommendation.
    package var objective: Objective?
    /// The registry the cells' `app.policy` names resolve in.
    package var policies: PolicyRegistry = .builtIn
    /// Set by the file's `"modelUncertainty": true`: each seed draws the iOS model's uncertain
    /// numbers (``ModelUncertainty``), those an axis sets left to the axis.
    package var modelUncertainty: ModelUncertainty?

    /// ``modelUncertainty`` with the base scenario's narrower ranges (``Scenario/plausible``, such
    /// as a calibrated fragment's): what each seed draws. Every cell has the same ranges, since
    /// axes set numbers, not ranges.
    package var drawnUncertainty: ModelUncertainty? {
        guard let modelUncertainty else { return nil }
        guard case .array(let items)? = base["plausible"] else { return modelUncertainty }
        return modelUncertainty.narrowed(by: items.compactMap { item in
            guard case .string(let path)? = item["path"], case .number(let low)? = item["low"], case .number(let high)? = item["high"] else { return nil }
            return PlausibleRange(path: path, low: low, high: high)
        })
    }

    /// The number of cells.
    package var cellCount: Int { axes.reduce(1) { $0 * $1.values.count } }

    /// The axis values of cell `index`, one per axis.
    package func values(ofCell index: Int) -> [JSONValue] {
        var remainder = index
        var result: [JSONValue] = []
        for axis in axes.reversed() {
            result.append(axis.values[remainder % axis.values.count])
            remainder /= axis.values.count
        }
        return result.reversed()
    }

    /// The scenario of cell `index`: the base with the cell's values set, validated.
    package func scenario(ofCell index: Int, source: String) throws(ScenarioError) -> Scenario {
        var document = base
        for (axis, value) in zip(axes, values(ofCell: index)) {
            document = ScenarioLoader.setting(value, at: axis.path.split(separator: ".").map(String.init), in: document)
        }
        let with = fragments.isEmpty ? "" : " with " + fragments.joined(separator: ", ")
        var scenario = try ScenarioLoader.decode(JSONWriter.compact(document), source: "\(source) (cell \(index)\(with))", policies: policies)
        scenario.name = "\(name)#\(index)"
        return scenario
    }

    // MARK: Reading

    /// Reads and checks a sweep file; problems name the file and the field.
    package static func load(path: String, policies: PolicyRegistry = .builtIn,
                             presets: [Presets.Preset] = Presets.all) throws(ScenarioError) -> SweepDefinition {
        try decode(try ScenarioLoader.readText(path: path), source: path, policies: policies, presets: presets)
    }

    /// - Parameters:
    ///   - policies: The registry the base scenario's and the cells' `app.policy` names resolve in.
    ///   - presets: The scenarios `preset` may name.
    package static func decode(_ text: String, source: String, policies: PolicyRegistry = .builtIn,
                               presets: [Presets.Preset] = Presets.all) throws(ScenarioError) -> SweepDefinition {
        func fail(_ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: message)])
        }
        let known = ["name", "preset", "scenario", "axes", "seeds", "firstSeed", "days", "objectives", "objective", "margins", "modelUncertainty"]
        let document = try StudyFile.object(text, source: source, known: known)
        var name = "sweep"
        if let value = document["name"] {
            guard case .string(let text) = value, !text.isEmpty else { throw fail("name", "expected a non-empty string") }
            // The name becomes a file name (NAME.jsonl): it must not leave its folder.
            let allowed = text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
            guard allowed, !text.hasPrefix("."), text.count <= 100 else {
                throw fail("name", "expected up to 100 letters, digits, '-', '_' and '.' (not first), got \"\(text)\"")
            }
            name = text
        }
        let base: JSONValue
        switch (document["preset"], document["scenario"]) {
        case (.string(let preset)?, nil):
            guard let scenario = presets.first(where: { $0.name == preset })?.scenario else {
                throw fail("preset", "expected one of \(presets.map { "\"\($0.name)\"" }.joined(separator: ", ")), got \"\(preset)\""
                           + FormerNames.hint(for: preset))
            }
            base = ScenarioLoader.document(of: scenario)
        case (nil, let scenario?):
            guard case .object = scenario else { throw fail("scenario", "expected a scenario object") }
            base = ScenarioLoader.withPolicyObject(scenario)
        case (nil, nil):
            base = .object([])
        default:
            throw fail("preset", "give either \"preset\" (a name) or \"scenario\" (an object), not both")
        }
        guard case .array(let axisValues)? = document["axes"], !axisValues.isEmpty else {
            throw fail("axes", "expected a non-empty array of {\"path\": …, \"values\": […]}")
        }
        var axes: [Axis] = []
        for (index, axisValue) in axisValues.enumerated() {
            guard case .string(let path)? = axisValue["path"], !path.isEmpty else {
                throw fail("axes[\(index)].path", "expected a parameter path such as \"app.policy.parameters.meanDelayMinutes\"")
            }
            guard case .array(let values)? = axisValue["values"], !values.isEmpty else {
                throw fail("axes[\(index)].values", "expected a non-empty array of values")
            }
            if let earlier = axes.firstIndex(where: { $0.path == path }) {
                throw fail("axes[\(index)].path", "\"\(path)\" is already axes[\(earlier)]'s path; give each parameter one axis")
            }
            axes.append(Axis(path: path, values: values))
        }
        func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
            guard let field = document[key] else { return value }
            // Compared as a Double first: converting one beyond Int's range would trap.
            guard case .number(let number) = field, number == number.rounded(),
                  number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw fail(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return Int(number)
        }
        let seedCount = try integer("seeds", default: 20, in: 1...100_000)
        let firstSeed = try FirstSeedField.read(document["firstSeed"], count: seedCount, source: source)
        let days = try integer("days", default: 90, in: SimulationRunner.days)
        // The app's own metrics are those the base declares; axes do not change them.
        let baseScenario = try ScenarioLoader.decode(JSONWriter.compact(base), source: source, policies: policies)
        let reported = ComparedMetric.standard(including: [baseScenario])
        var objectives: [ComparedMetric] = []
        if case .array(let keys)? = document["objectives"] {
            for (index, key) in keys.enumerated() {
                guard case .string(let text) = key, let metric = reported.first(where: { $0.key == text }) else {
                    throw fail("objectives[\(index)]", "expected one of \(reported.map { "\"\($0.key)\"" }.joined(separator: ", "))")
                }
                objectives.append(metric)
            }
        } else {
            objectives = reported.filter { ["work.allItemsLatencyMinutes.p90", "energy.appBatteryPercentPerDay"].contains($0.key) }
        }
        guard objectives.count == 2 else { throw fail("objectives", "expected two metric keys to trade off") }
        var metrics = reported
        if let margins = document["margins"] {
            metrics = try Objective.applyingMargins(document: margins, to: metrics, source: source, path: "margins")
            try Objective.requireAbsoluteMargins(metrics, source: source, path: "margins")
        }
        let objective = try document["objective"].map { document throws(ScenarioError) in
            try Objective.decode(document, metrics: metrics, source: source, path: "objective")
        }
        var definition = SweepDefinition(
            name: name, base: base, axes: axes, seeds: (0..<seedCount).map { firstSeed + UInt64($0) }, days: days,
            objectives: objectives, objective: objective, policies: policies)
        definition.metrics = reported
        switch document["modelUncertainty"] {
        case nil, .bool(false)?: break
        // An axis's number is what the sweep varies: it is not drawn over.
        case .bool(true)?: definition.modelUncertainty = ModelUncertainty.standard.fixing(axes.map(\.path))
        default: throw fail("modelUncertainty", "expected true or false")
        }
        guard definition.cellCount <= 100_000 else { throw fail("axes", "expected at most 100,000 cells, got \(definition.cellCount)") }
        // Every cell's scenario must be valid; checking the first and last catches wrong paths and types.
        _ = try definition.scenario(ofCell: 0, source: source)
        _ = try definition.scenario(ofCell: definition.cellCount - 1, source: source)
        return definition
    }
}
