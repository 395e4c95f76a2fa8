import BackgroundSim

/// Every number of a run's report summarised across replications (seeds): mean, standard
/// deviation, 95 % confidence interval and quantiles, one row per report field.
///
/// Fields are the numeric leaves of `bgsim run --format json` (docs/OUTPUT.md) in the report's
/// order, named by their paths (`device.screenOnHoursPerDay`, `os.launchHourHistogram[3]`).
/// They are read from the report as printed, so to its four significant decimals.
public struct ReplicationSummary: Sendable {
    public struct Row: Sendable {
        public var path: String
        public var summary: SampleSummary
    }

    public var scenarioName: String
    public var seeds: [UInt64]
    public var days: Int
    public var rows: [Row]

    /// Summarises `results`, one per seed, in seed order.
    public init(_ results: [RunResult]) {
        var accumulator = Accumulator()
        for result in results { accumulator.add(result) }
        self = accumulator.summary
    }

    /// A summary built one run at a time: it keeps each field's values, not the runs, so a
    /// run of thousands of seeds holds a few kilobytes per seed rather than every report.
    public struct Accumulator: Sendable {
        var scenarioName = ""
        var seeds: [UInt64] = []
        var days = 0
        // Fields in the order first seen; a field that is null in a run (a correlation that does
        // not apply) has fewer values than there are seeds, and its count says so.
        var paths: [String] = []
        var slots: [String: Int] = [:]
        var values: [[Double]] = []

        public init() {}

        /// Adds the next seed's result (in seed order).
        public mutating func add(_ result: RunResult) {
            if seeds.isEmpty {
                scenarioName = result.scenarioName
                days = result.days
            }
            seeds.append(result.seed)
            var leaves: [(String, Double?)] = []
            // Only the report's groups: the seed, digest and event count are not measurements.
            if case .object(let members) = ReportFormatter.json(result) {
                for (key, value) in members where ["device", "os", "metricKit", "work", "energy"].contains(key) {
                    ReplicationSummary.collect(value, path: key, into: &leaves)
                }
            }
            for (path, value) in leaves {
                let slot: Int
                if let known = slots[path] {
                    slot = known
                } else {
                    slot = paths.count
                    slots[path] = slot
                    paths.append(path)
                    values.append([])
                }
                if let value { values[slot].append(value) }
            }
        }

        /// The summary of the runs added so far.
        public var summary: ReplicationSummary {
            ReplicationSummary(scenarioName: scenarioName, seeds: seeds, days: days,
                               rows: zip(paths, values).map { Row(path: $0, summary: SampleSummary($1)) })
        }
    }

    init(scenarioName: String, seeds: [UInt64], days: Int, rows: [Row]) {
        self.scenarioName = scenarioName
        self.seeds = seeds
        self.days = days
        self.rows = rows
    }

    /// Appends the numeric leaves of `value` under `path`, in document order; a null is a leaf
    /// without a value.
    static func collect(_ value: JSONValue, path: String, into leaves: inout [(String, Double?)]) {
        switch value {
        case .number(let number): leaves.append((path, number))
        case .bool(let flag): leaves.append((path, flag ? 1 : 0))
        case .null: leaves.append((path, nil))
        case .object(let members): for (key, member) in members { collect(member, path: path + "." + key, into: &leaves) }
        case .array(let elements): for (index, element) in elements.enumerated() { collect(element, path: path + "[\(index)]", into: &leaves) }
        case .string: break
        }
    }

    /// The order of the groups in the readable table: what a policy author came for — the work
    /// and its energy — first, then the system, the phone and MetricKit's counters.
    static let tableGroupOrder = ["work", "energy", "os", "device", "metricKit"]

    /// Readable text: a row per field with mean ± half-width, standard deviation and quantiles,
    /// each column as wide as its widest cell (``TextTable``), the groups in ``tableGroupOrder``
    /// (the CSV and JSON keep the report's order).
    public var table: String {
        var lines = ["\(scenarioName): \(seeds.count) seeds × \(days) days (seeds \(seeds.first ?? 0)…\(seeds.last ?? 0))", ""]
        func group(_ row: Row) -> Int { Self.tableGroupOrder.firstIndex { row.path.hasPrefix($0 + ".") } ?? Self.tableGroupOrder.count }
        let ordered = rows.enumerated().sorted { (group($0.element), $0.offset) < (group($1.element), $1.offset) }.map(\.element)
        lines += TextTable.render(header: ["field", "unit", "mean ± 95 % CI", "sd", "p10", "median", "p90"], rows: ordered.map { row in
            let s = row.summary
            return [row.path, ReportUnit.of(path: row.path).described(days: days), ComparisonFormatter.cell(s), Format.significant(s.standardDeviation), Format.significant(s.p10),
                    Format.significant(s.median), Format.significant(s.p90)]
        })
        return lines.joined(separator: "\n")
    }

    /// CSV: `field,unit,mean,sd,ci95_low,ci95_high,p10,median,p90,count`.
    public var csv: String {
        var lines = ["field,unit,mean,sd,ci95_low,ci95_high,p10,median,p90,count"]
        for row in rows {
            let s = row.summary
            lines.append(([row.path, ComparisonFormatter.csvField(ReportUnit.of(path: row.path).described(days: days))] + [s.mean, s.standardDeviation, s.mean - s.halfWidth95, s.mean + s.halfWidth95, s.p10, s.median, s.p90]
                .map(JSONWriter.format) + [String(s.count)]).joined(separator: ","))
        }
        return lines.joined(separator: "\n")
    }

    /// JSON: `scenario`, `seeds`, `days`, and `fields`, each path with its unit and summary.
    package var json: JSONValue {
        .object([
            ("scenario", .string(scenarioName)),
            ("seeds", .array(seeds.map { .string(String($0)) })),
            ("days", .number(Double(days))),
            ("fields", .object(rows.map { row in
                let s = row.summary
                return (row.path, .object([
                    ("unit", .string(ReportUnit.of(path: row.path).described(days: days))),
                    ("mean", .number(s.mean)), ("sd", .number(s.standardDeviation)),
                    ("ci95", .array([.number(s.mean - s.halfWidth95), .number(s.mean + s.halfWidth95)])),
                    ("p10", .number(s.p10)), ("median", .number(s.median)), ("p90", .number(s.p90)),
                ]))
            })),
        ])
    }
}
