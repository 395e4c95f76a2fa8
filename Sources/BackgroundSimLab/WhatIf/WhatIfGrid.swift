import BackgroundSim

/// The conditions a policy meets in the field, as a grid: each dimension (network mix, charging
/// habits, app usage, device model) has named levels, each level a set of scenario settings,
/// and the grid's cells are every combination.
///
/// Each dimension names its *typical* level: the cell with every dimension typical is the
/// reference the others are read against.
public struct WhatIfGrid: Sendable {
    public struct Level: Sendable {
        public var name: String
        /// Scenario parameter paths (as in validation messages) and their values.
        package var settings: [(path: String, value: JSONValue)]
        /// The share of users at this level, when the grid weighs its cells (0–1; a dimension's
        /// shares sum to 1).
        public var share: Double?

        package init(name: String, settings: [(path: String, value: JSONValue)], share: Double? = nil) {
            self.name = name
            self.settings = settings
            self.share = share
        }
    }

    public struct Dimension: Sendable {
        public var name: String
        public var levels: [Level]
        /// The index of the typical level.
        public var typical: Int
    }

    public var dimensions: [Dimension]

    /// The standard grid: 3 network mixes × 3 charging habits × 3 app-usage frequencies × 3
    /// device models, 81 cells. The typical levels are the scenario defaults (the middle ones).
    ///
    /// The levels span the plausible ranges given in docs/MODEL.md (network, charging, devices) and the
    /// user model; the extremes are our assumption [Inf] of a heavy-Wi-Fi home worker and a
    /// commuter whose home Wi-Fi rarely works, a phone charged every night and one charged
    /// irregularly, and the smallest and largest batteries of recent iPhones.
    public static let standard = WhatIfGrid(dimensions: [
        Dimension(name: "network", levels: [
            Level(name: "mostly Wi-Fi", settings: [("network.wifiShare", .number(0.75)), ("network.poorSignalShare", .number(0.1))]),
            Level(name: "typical mix", settings: []),
            Level(name: "mostly cellular, poor signal", settings: [
                ("network.homeWifiProbability", .number(0.3)), ("network.wifiShare", .number(0.25)),
                ("network.poorSignalShare", .number(0.35)), ("network.goodSignalShare", .number(0.3)),
            ]),
        ], typical: 1),
        Dimension(name: "charging", levels: [
            Level(name: "every night", settings: [("power.overnightChargeProbability", .number(0.97))]),
            Level(name: "most nights", settings: []),
            Level(name: "irregular", settings: [("power.overnightChargeProbability", .number(0.4)), ("power.topUpsPerDay", .number(0.5))]),
        ], typical: 1),
        Dimension(name: "app usage", levels: [
            Level(name: "several times a day", settings: [("user.app.profile", .string("severalTimesADay"))]),
            Level(name: "daily", settings: []),
            Level(name: "weekly", settings: [("user.app.profile", .string("weekly"))]),
        ], typical: 1),
        Dimension(name: "device", levels: [
            Level(name: "iPhone 12 mini", settings: [("device.model", .string("iPhone 12 mini"))]),
            Level(name: "iPhone 15", settings: []),
            Level(name: "iPhone 16 Pro Max", settings: [("device.model", .string("iPhone 16 Pro Max"))]),
        ], typical: 1),
    ])

    /// Each cell's weight — the product of its levels' shares — when every level of every
    /// dimension has a share; `nil` otherwise.
    public var cellWeights: [Double]? {
        guard dimensions.allSatisfy({ $0.levels.allSatisfy { $0.share != nil } }) else { return nil }
        return (0..<cellCount).map { cell in
            zip(dimensions, levels(ofCell: cell)).reduce(1.0) { $0 * ($1.0.levels[$1.1].share ?? 0) }
        }
    }

    /// The number of cells.
    public var cellCount: Int { dimensions.reduce(1) { $0 * $1.levels.count } }

    /// The level index of each dimension in cell `index`; the first dimension varies slowest.
    public func levels(ofCell index: Int) -> [Int] {
        var remainder = index
        var result: [Int] = []
        for dimension in dimensions.reversed() {
            result.append(remainder % dimension.levels.count)
            remainder /= dimension.levels.count
        }
        return result.reversed()
    }

    /// The cell whose levels are `levels`.
    public func cell(withLevels levels: [Int]) -> Int {
        zip(dimensions, levels).reduce(0) { $0 * $1.0.levels.count + $1.1 }
    }

    /// The cell with every dimension at its typical level.
    public var typicalCell: Int { cell(withLevels: dimensions.map(\.typical)) }

    /// The cells that differ from the typical cell in dimension `dimension` only, one per level.
    public func cellsVarying(_ dimension: Int) -> [Int] {
        dimensions[dimension].levels.indices.map { level in
            var levels = dimensions.map(\.typical)
            levels[dimension] = level
            return cell(withLevels: levels)
        }
    }

    /// The level names of cell `index`, one per dimension.
    public func describe(cell index: Int) -> [String] {
        zip(dimensions, levels(ofCell: index)).map { $0.levels[$1].name }
    }

    /// `base` with cell `index`'s settings, validated.
    public func scenario(_ base: Scenario, cell index: Int) throws(ScenarioError) -> Scenario {
        try scenario(base, cell: index, policies: .builtIn)
    }

    /// `base` with cell `index`'s settings, validated, names resolved in `policies` (and the
    /// base's own policy).
    package func scenario(_ base: Scenario, cell index: Int, policies: PolicyRegistry) throws(ScenarioError) -> Scenario {
        var document = ScenarioLoader.document(of: base)
        for (dimension, level) in zip(dimensions, levels(ofCell: index)) {
            for setting in dimension.levels[level].settings {
                document = ScenarioLoader.setting(setting.value, at: setting.path.split(separator: ".").map(String.init), in: document)
            }
        }
        return try ScenarioLoader.decode(JSONWriter.compact(document), source: "\(base.name) (what-if cell \(index): \(describe(cell: index).joined(separator: ", ")))",
                                         policies: policies.including(base.app.policy.definition))
    }
}
