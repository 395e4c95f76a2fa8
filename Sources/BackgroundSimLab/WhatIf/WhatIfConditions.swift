import BackgroundSim

/// A what-if grid from a conditions file: a team's own dimensions, each with named levels of
/// scenario settings and, optionally, the share of users at each level.
///
///     {
///       "dimensions": [
///         { "name": "market", "typical": "EU",
///           "levels": [
///             { "name": "EU", "share": 0.6, "settings": { "network.wifiShare": 0.65 } },
///             { "name": "India", "share": 0.4,
///               "settings": { "network.wifiShare": 0.3, "network.homeWifiProbability": 0.4 } } ] },
///         { "name": "device", "levels": [
///             { "name": "iPhone 13", "share": 0.5, "settings": { "device.model": "iPhone 13" } },
///             { "name": "iPhone 15", "share": 0.5, "settings": {} } ] }
///       ]
///     }
///
/// Settings use the scenario's parameter paths, as sweep axes do. `typical` names the reference
/// level (default: the first). When every level gives a `share` (each dimension's summing to 1),
/// the report adds each scenario's figures weighted by them.
package enum WhatIfConditions {
    /// The most dimensions, levels per dimension and cells a conditions file may ask for.
    static let maximumDimensions = 8, maximumLevels = 20, maximumCells = 10_000

    /// Reads and checks a conditions file; every problem names the file and the field.
    package static func load(path: String, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> WhatIfGrid {
        try decode(try ScenarioLoader.readText(path: path), source: path, policies: policies)
    }

    package static func decode(_ text: String, source: String, policies: PolicyRegistry = .builtIn) throws(ScenarioError) -> WhatIfGrid {
        var issues: [ScenarioIssue] = []
        func fail(_ path: String, _ message: String) { issues.append(ScenarioIssue(path: path, message: message)) }
        let document: JSONValue
        do {
            document = try JSONParser.parse(text)
        } catch {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "not valid JSON: \(error)")])
        }
        guard case .object(let top) = document else {
            throw ScenarioError(source: source, issues: [ScenarioIssue(path: "", message: "expected an object with \"dimensions\"")])
        }
        for member in top where member.key != "dimensions" {
            fail(member.key, "unknown key" + (ScenarioLoader.closest(to: member.key, among: ["dimensions"]).map { "; did you mean \"\($0)\"?" } ?? ""))
        }
        guard case .array(let dimensionValues)? = document["dimensions"], !dimensionValues.isEmpty,
              dimensionValues.count <= maximumDimensions else {
            throw ScenarioError(source: source, issues: issues + [ScenarioIssue(path: "dimensions", message: "expected 1 to \(maximumDimensions) dimensions")])
        }
        var dimensions: [WhatIfGrid.Dimension] = []
        for (d, value) in dimensionValues.enumerated() {
            let at = "dimensions[\(d)]"
            guard case .object(let members) = value else { fail(at, "expected {\"name\": …, \"levels\": […]}"); continue }
            for member in members where !["name", "typical", "levels"].contains(member.key) {
                fail("\(at).\(member.key)", "unknown key; known keys here: name, typical, levels")
            }
            guard case .string(let name)? = value["name"], !name.isEmpty else { fail("\(at).name", "expected a non-empty name"); continue }
            guard case .array(let levelValues)? = value["levels"], !levelValues.isEmpty, levelValues.count <= maximumLevels else {
                fail("\(at).levels", "expected 1 to \(maximumLevels) levels"); continue
            }
            var levels: [WhatIfGrid.Level] = []
            for (l, levelValue) in levelValues.enumerated() {
                let levelAt = "\(at).levels[\(l)]"
                guard case .object(let levelMembers) = levelValue else { fail(levelAt, "expected {\"name\": …, \"settings\": {…}}"); continue }
                for member in levelMembers where !["name", "share", "settings"].contains(member.key) {
                    fail("\(levelAt).\(member.key)", "unknown key; known keys here: name, share, settings")
                }
                guard case .string(let levelName)? = levelValue["name"], !levelName.isEmpty else { fail("\(levelAt).name", "expected a non-empty name"); continue }
                var share: Double?
                if let shareValue = levelValue["share"] {
                    guard case .number(let number) = shareValue, number >= 0, number <= 1 else { fail("\(levelAt).share", "expected a number from 0 to 1"); continue }
                    share = number
                }
                var settings: [(path: String, value: JSONValue)] = []
                switch levelValue["settings"] {
                case nil: break
                case .object(let pairs)?: settings = pairs.map { ($0.key, $0.value) }
                default: fail("\(levelAt).settings", "expected an object of parameter paths and values"); continue
                }
                // Each setting must make a valid scenario on its own, on the defaults.
                let level = WhatIfGrid.Level(name: levelName, settings: settings, share: share)
                let probe = WhatIfGrid(dimensions: [WhatIfGrid.Dimension(name: name, levels: [level], typical: 0)])
                do {
                    _ = try probe.scenario(Scenario(), cell: 0, policies: policies)
                } catch {
                    issues += error.issues.map { ScenarioIssue(path: "\(levelAt).settings.\($0.path)", message: $0.message) }
                }
                levels.append(level)
            }
            if Set(levels.map(\.name)).count != levels.count { fail("\(at).levels", "expected distinct level names") }
            let shares = levels.compactMap(\.share)
            if !shares.isEmpty {
                if shares.count != levels.count {
                    fail("\(at).levels", "give every level a share, or none")
                } else if abs(shares.reduce(0, +) - 1) > 1e-6 {
                    fail("\(at).levels", "expected the shares to sum to 1, got \(JSONWriter.format(shares.reduce(0, +)))")
                }
            }
            var typical = 0
            if let typicalValue = value["typical"] {
                if case .string(let typicalName) = typicalValue, let index = levels.firstIndex(where: { $0.name == typicalName }) {
                    typical = index
                } else {
                    fail("\(at).typical", "expected one of the levels' names: \(levels.map { "\"\($0.name)\"" }.joined(separator: ", "))")
                }
            }
            dimensions.append(WhatIfGrid.Dimension(name: name, levels: levels, typical: typical))
        }
        if Set(dimensions.map(\.name)).count != dimensions.count { fail("dimensions", "expected distinct dimension names") }
        let grid = WhatIfGrid(dimensions: dimensions)
        if issues.isEmpty && grid.cellCount > maximumCells {
            fail("dimensions", "expected at most \(maximumCells) cells (levels multiplied), got \(grid.cellCount)")
        }
        guard issues.isEmpty else { throw ScenarioError(source: source, issues: issues) }
        return grid
    }
}
