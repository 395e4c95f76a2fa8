import BackgroundSim
import Foundation

/// A tuning file: a base scenario, the parameters to search (discrete values or a continuous
/// range searched on an even grid), the objective, and the procedure's settings.
///
///     {
///       "name": "coverdrop-tune",
///       "preset": "coverdrop-designed",
///       "parameters": [
///         { "path": "app.policy.parameters.meanDelayMinutes", "from": 5, "to": 120, "count": 6 },
///         { "path": "app.policy.parameters.minimumRunIntervalMinutes", "values": [30, 60, 120] }
///       ],
///       "objective": { "minimize": "work.allItemsLatencyMinutes.p90",
///                      "subjectTo": ["energy.appBatteryPercentPerDay<=0.05"] },
///       "indifferenceZone": 10,
///       "days": 90, "firstStageSeeds": 10, "maximumSeeds": 100
///     }
///
/// The configurations are the parameters' cartesian product, the first varying slowest, as a
/// sweep's cells (``SweepDefinition``), which the tuning runs in two stages.
package struct TuneDefinition: Sendable {
    /// The configurations as a sweep with the first stage's seeds.
    package var configurations: SweepDefinition
    package var procedure: TuningProcedure
    package var firstSeed: UInt64

    package var name: String { configurations.name }
    package var days: Int { configurations.days }

    /// The sweep of stage `stage` on the seeds at indices `range`: stage 1 the first n₀ seeds,
    /// stage j > 1 the seeds from look j − 1 to look j.
    package func stage(_ stage: Int, seeds range: Range<Int>) -> SweepDefinition {
        var definition = configurations
        definition.seeds = range.map { firstSeed &+ UInt64($0) }
        definition.name = "\(configurations.name).stage\(stage)"
        return definition
    }

    /// Configuration `index`'s settings, by the last part of each path: "meanDelayMinutes=5 minimumRunIntervalMinutes=30".
    package func settings(ofConfiguration index: Int) -> String {
        zip(configurations.axes, configurations.values(ofCell: index)).map {
            "\($0.path.split(separator: ".").last ?? "")=\(JSONWriter.compact($1))"
        }.joined(separator: " ")
    }

    // MARK: Reading

    package static func load(path: String, policies: PolicyRegistry = .builtIn,
                             presets: [Presets.Preset] = Presets.all) throws(ScenarioError) -> TuneDefinition {
        try decode(try ScenarioLoader.readText(path: path), source: path, policies: policies, presets: presets)
    }

    package static func decode(_ text: String, source: String, policies: PolicyRegistry = .builtIn,
                               presets: [Presets.Preset] = Presets.all) throws(ScenarioError) -> TuneDefinition {
        func fail(_ path: String, _ message: String) -> ScenarioError {
            ScenarioError(source: source, issues: [ScenarioIssue(path: path, message: message)])
        }
        let known = ["name", "preset", "scenario", "parameters", "objective", "margins", "indifferenceZone", "tolerances",
                     "confidence", "firstStageSeeds", "maximumSeeds", "days", "firstSeed", "modelUncertainty"]
        let document = try StudyFile.object(text, source: source, known: known)
        // The parameters become a sweep's axes.
        guard case .array(let parameters)? = document["parameters"], !parameters.isEmpty else {
            throw fail("parameters", "expected a non-empty array of {\"path\": …, \"values\": […]} or {\"path\": …, \"from\": …, \"to\": …, \"count\": …}")
        }
        var axes: [JSONValue] = []
        for (index, parameter) in parameters.enumerated() {
            let field = "parameters[\(index)]"
            guard case .object(let keys) = parameter else { throw fail(field, "expected an object") }
            for key in keys.map(\.key) where !["path", "values", "from", "to", "count", "integer"].contains(key) {
                throw fail("\(field).\(key)", "unknown key; expected path with values, or path with from, to, count and optionally integer")
            }
            guard case .string(let path)? = parameter["path"] else { throw fail("\(field).path", "expected a parameter path such as \"app.policy.parameters.meanDelayMinutes\"") }
            if let values = parameter["values"] {
                guard parameter["from"] == nil, parameter["to"] == nil, parameter["count"] == nil else {
                    throw fail(field, "give either values or from, to and count, not both")
                }
                axes.append(.object([("path", .string(path)), ("values", values)]))
                continue
            }
            guard case .number(let from)? = parameter["from"], from.isFinite else { throw fail("\(field).from", "expected a number") }
            guard case .number(let to)? = parameter["to"], to.isFinite, to > from else { throw fail("\(field).to", "expected a number above from (\(from))") }
            guard case .number(let count)? = parameter["count"], count == count.rounded(), (2...1_000).contains(count) else {
                throw fail("\(field).count", "expected a whole number of grid points from 2 to 1,000")
            }
            var integer = false
            if let flag = parameter["integer"] {
                guard case .bool(let value) = flag else { throw fail("\(field).integer", "expected true or false") }
                integer = value
            }
            var grid: [Double] = []
            for step in 0..<Int(count) {
                var value = from + (to - from) * Double(step) / (count - 1)
                if integer { value = value.rounded() }
                if grid.last != value { grid.append(value) }
            }
            axes.append(.object([("path", .string(path)), ("values", .array(grid.map(JSONValue.number)))]))
        }
        func number(_ key: String, default value: Double) throws(ScenarioError) -> Double {
            guard let field = document[key] else { return value }
            guard case .number(let number) = field, number.isFinite else { throw fail(key, "expected a number") }
            return number
        }
        func integer(_ key: String, default value: Int, in range: ClosedRange<Int>) throws(ScenarioError) -> Int {
            let number = try number(key, default: Double(value))
            guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
                throw fail(key, "expected a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return Int(number)
        }
        let firstStage = try integer("firstStageSeeds", default: 10, in: 5...10_000)
        // The base, name and axes are read as a sweep's, with the first stage's seeds.
        var sweep: [(String, JSONValue)] = [("axes", .array(axes)), ("seeds", .number(Double(firstStage)))]
        if let given = document["firstSeed"] { sweep.append(("firstSeed", given)) }
        for key in ["name", "preset", "scenario", "days", "modelUncertainty"] { if let value = document[key] { sweep.append((key, value)) } }
        if document["name"] == nil { sweep.append(("name", .string("tune"))) }
        let configurations: SweepDefinition
        do {
            configurations = try SweepDefinition.decode(JSONWriter.compact(.object(sweep)), source: source, policies: policies, presets: presets)
        } catch {
            throw ScenarioError(source: source, issues: error.issues.map { issue in
                var issue = issue
                if issue.path.hasPrefix("axes") { issue.path = "parameters" + issue.path.dropFirst("axes".count) }
                return issue
            })
        }
        // The objective and margins, on the standard metrics and the base's own (``SweepDefinition/metrics``).
        var metrics = configurations.metrics
        if let margins = document["margins"] {
            metrics = try Objective.applyingMargins(document: margins, to: metrics, source: source, path: "margins")
            try Objective.requireAbsoluteMargins(metrics, source: source, path: "margins")
        }
        guard let objectiveDocument = document["objective"] else {
            throw fail("objective", "expected {\"minimize\": KEY} or {\"maximize\": KEY}, with \"subjectTo\": [\"KEY<=VALUE\", …]")
        }
        let objective = try Objective.decode(objectiveDocument, metrics: metrics, source: source, path: "objective")
        var procedure = TuningProcedure(objective: objective)
        if document["indifferenceZone"] != nil { procedure.indifferenceZone = try number("indifferenceZone", default: 0) }
        if let tolerances = document["tolerances"] {
            guard case .object(let entries) = tolerances else { throw fail("tolerances", "expected an object {\"KEY\": tolerance, …} for the bounds' metrics") }
            for (key, value) in entries {
                guard let position = objective.bounds.firstIndex(where: { $0.metric.key == key }) else {
                    throw fail("tolerances.\(key)", "expected a metric with a bound in objective.subjectTo")
                }
                guard case .number(let tolerance) = value else { throw fail("tolerances.\(key)", "expected a number > 0") }
                procedure.tolerances[position] = tolerance
            }
        }
        procedure.confidence = try number("confidence", default: 0.95)
        procedure.firstStageSeeds = firstStage
        procedure.maximumSeeds = try integer("maximumSeeds", default: Swift.max(200, firstStage), in: firstStage...100_000)
        guard procedure.issues.isEmpty else { throw ScenarioError(source: source, issues: procedure.issues) }
        let firstSeed = try FirstSeedField.read(document["firstSeed"], count: procedure.maximumSeeds, source: source)
        return TuneDefinition(configurations: configurations, procedure: procedure, firstSeed: firstSeed)
    }
}
