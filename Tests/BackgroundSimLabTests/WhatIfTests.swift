import BackgroundSim
@testable import BackgroundSimLab
import Testing

@Suite("Battery what-if")
struct WhatIfTests {
    let grid = WhatIfGrid.standard

    @Test("cells and levels map both ways; the typical cell has every dimension typical")
    func cellMapping() {
        #expect(grid.cellCount == 81)
        for cell in 0..<grid.cellCount {
            #expect(grid.cell(withLevels: grid.levels(ofCell: cell)) == cell)
        }
        #expect(grid.levels(ofCell: grid.typicalCell) == grid.dimensions.map(\.typical))
        #expect(grid.describe(cell: grid.typicalCell) == ["typical mix", "most nights", "daily", "iPhone 15"])
        let varying = grid.cellsVarying(3)
        #expect(varying.count == 3 && varying.contains(grid.typicalCell))
        #expect(varying.map { grid.levels(ofCell: $0)[3] } == [0, 1, 2])
    }

    @Test("every cell of the standard grid is a valid scenario carrying its settings, on every preset")
    func cellsAreValid() throws {
        for preset in Presets.all {
            for cell in 0..<grid.cellCount {
                let scenario = try grid.scenario(preset.scenario, cell: cell)
                let levels = grid.levels(ofCell: cell)
                #expect(scenario.device.model == [.iPhone12Mini, .iPhone15, .iPhone16ProMax][levels[3]])
                #expect(scenario.network.wifiShare == [0.75, preset.scenario.network.wifiShare, 0.25][levels[0]])
                #expect(scenario.user.app.profile == [.severalTimesADay, preset.scenario.user.app.profile, .weekly][levels[2]])
            }
        }
    }

    @Test("the typical cell reproduces the base scenario's runs exactly; usage and battery size move the cost the expected way")
    func study() throws {
        let base = Presets.scenario(named: "proton-upload-designed")!
        let seeds: [UInt64] = [1, 2, 3, 4]
        let study = try WhatIfStudy.run([("proton-upload-designed", base)], seeds: seeds, days: 10, jobs: 2)
        let direct = try Replications.run(base, seeds: seeds, days: 10, jobs: 1)
        for (index, metric) in study.metrics.enumerated() {
            #expect(study.summaries[0][grid.typicalCell][index] == SampleSummary(direct.compactMap(metric.value)), "\(metric.key)")
        }
        let battery = WhatIfFormatter.battery
        let usage = grid.cellsVarying(2).map { study.summaries[0][$0][battery].mean }
        #expect(usage[0] > usage[1] && usage[1] > usage[2], "more app sessions, more uploads, more energy: \(usage)")
        let devices = grid.cellsVarying(3).map { study.summaries[0][$0][battery].mean }
        #expect(devices[0] > devices[1] && devices[1] > devices[2], "the same joules are a larger share of a smaller battery: \(devices)")
        let (lowest, highest) = study.extremes(scenario: 0, metric: battery)
        #expect(study.summaries[0].allSatisfy { $0[battery].mean >= study.summaries[0][lowest][battery].mean })
        #expect(study.summaries[0].allSatisfy { $0[battery].mean <= study.summaries[0][highest][battery].mean })

        let document = ParsedXML(WhatIfReport.html(study))
        #expect(document.wellFormed, "\(document.problem ?? "")")
        #expect(document.elements(named: "svg").count == grid.dimensions.count)
        #expect(document.elements(inside: "by-device-chart").filter { $0.attributes["class"] == "bar" }.count == 3)
        #expect(document.elements(inside: "by-device-chart").filter { $0.name == "path" }.count == 3, "a whisker per bar")
        // A row per cell in the grid's table, and one per decision outcome of the typical cell.
        let decisionRows = [0, 1].map { kind in
            let profile = study.typicalProfiles[0].decisionsPerDay[kind]
            return (profile.launched > 0 ? 1 : 0) + profile.denials.count { $0 > 0 }
        }.reduce(0, +)
        #expect(decisionRows > 0)
        #expect(document.elements(named: "tr").filter { $0.path.contains("tbody") }.count == grid.cellCount + decisionRows)
        #expect(document.text.contains("In the typical cell"))

        let csv = WhatIfFormatter.csv(study).split(separator: "\n")
        #expect(csv.count == 1 + grid.cellCount * study.metrics.count)
        #expect(WhatIfFormatter.markdown(study).contains("| iPhone 12 mini | "))
    }
}
