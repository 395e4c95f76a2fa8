import BackgroundSim
@testable import BackgroundSimLab
import Testing

@Suite("What-if conditions of your own")
struct WhatIfConditionsTests {
    static let file = """
        { "dimensions": [
          { "name": "market", "typical": "EU", "levels": [
            { "name": "EU", "share": 0.6, "settings": { "network.wifiShare": 0.65 } },
            { "name": "India", "share": 0.4, "settings": { "network.wifiShare": 0.3, "network.homeWifiProbability": 0.4 } } ] },
          { "name": "device", "levels": [
            { "name": "iPhone 13", "share": 0.25, "settings": { "device.model": "iPhone 13" } },
            { "name": "iPhone 15", "share": 0.75 } ] } ] }
        """

    @Test("a conditions file gives its grid: dimensions, typical levels, settings in each cell, and cell weights as products of shares")
    func grid() throws {
        let grid = try WhatIfConditions.decode(Self.file, source: "c.json")
        #expect(grid.dimensions.map(\.name) == ["market", "device"])
        #expect(grid.cellCount == 4 && grid.typicalCell == 0)
        #expect(grid.cellWeights == [0.6 * 0.25, 0.6 * 0.75, 0.4 * 0.25, 0.4 * 0.75])
        let india13 = try grid.scenario(Scenario(), cell: 2)
        #expect(india13.network.wifiShare == 0.3 && india13.network.homeWifiProbability == 0.4 && india13.device.model == .iPhone13)
    }

    @Test("Low Data Mode as a what-if dimension (docs/WHATIF.md's level settings): everywhere, a refresh policy gets no background launch")
    func lowDataModeDimension() throws {
        let file = """
            { "dimensions": [ { "name": "Low Data Mode", "levels": [ { "name": "off" }, { "name": "on cellular", "settings": { "network.lowDataModeOnCellular": true } }, { "name": "everywhere", "settings": { "network.lowDataModeOnCellular": true, "network.lowDataModeOnWifi": true } } ] } ] }
            """
        let grid = try WhatIfConditions.decode(file, source: "ldm.json")
        let base = Presets.scenario(named: "probe-refresh")!
        let launches = try (0..<3).map { cell in
            try SimulationRunner.run(scenario: grid.scenario(base, cell: cell), seed: 1, days: 7).os.refreshLaunchesPerDay
        }
        #expect(launches[0] > 0.3 && launches[1] < launches[0] && launches[2] == 0, "\(launches)")
    }

    @Test("the weighted figure is the shares' average of the cells' means")
    func weighted() throws {
        let grid = try WhatIfConditions.decode(Self.file, source: "c.json")
        let study = try WhatIfStudy.run([("cd", Presets.scenario(named: ReferenceApp.CoverDropName.designed)!)], grid: grid, seeds: [1, 2], days: 5, jobs: 2)
        let metric = WhatIfStudy.metric("energy.appBatteryPercentPerDay")
        let byHand = zip(grid.cellWeights!, study.summaries[0]).reduce(0.0) { $0 + $1.0 * $1.1[metric].mean }
        #expect(abs(study.weightedMean(scenario: 0, metric: metric)! - byHand) < 1e-15)
    }

    @Test("a bad conditions file is refused with every field named", arguments: [
        (#"{"dimensions": []}"#, "dimensions: expected 1 to 8 dimensions"),
        (#"{"dimensions": [{"name": "m", "levels": [{"name": "a", "settings": {"network.wifiShar": 0.3}}]}]}"#,
         #"dimensions[0].levels[0].settings.network.wifiShar: unknown key; did you mean "wifiShare"?"#),
        (#"{"dimensions": [{"name": "m", "levels": [{"name": "a", "share": 0.5}, {"name": "b", "share": 0.6}]}]}"#,
         "dimensions[0].levels: expected the shares to sum to 1, got 1.1"),
        (#"{"dimensions": [{"name": "m", "levels": [{"name": "a", "share": 1}, {"name": "b"}]}]}"#, "dimensions[0].levels: give every level a share, or none"),
        (#"{"dimensions": [{"name": "m", "typical": "z", "levels": [{"name": "a"}]}]}"#, #"dimensions[0].typical: expected one of the levels' names: "a""#),
        (#"{"dimensions": [{"name": "m", "levels": [{"name": "a", "share": 2}]}]}"#, "dimensions[0].levels[0].share: expected a number from 0 to 1"),
        (#"{"dimension": []}"#, #"dimension: unknown key; did you mean "dimensions"?"#),
    ])
    func refusals(text: String, message: String) {
        do {
            _ = try WhatIfConditions.decode(text, source: "bad.json")
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("bad.json: " + message), "\(error)")
        }
    }
}
