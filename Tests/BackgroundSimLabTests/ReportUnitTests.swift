@testable import BackgroundSim
@testable import BackgroundSimLab
import Foundation
import Testing

/// One unit per quantity: a key names the same number, in the same unit, in a run's JSON, in
/// every command that compares it, and in docs/OUTPUT.md.
@Suite("One unit per quantity")
struct ReportUnitTests {
    /// The number at `path` in `json`: `.some(nil)` for a JSON null, `nil` when there is none.
    static func number(at path: String, in json: JSONValue) -> Double?? {
        var value: JSONValue? = json
        for component in path.split(separator: ".") { value = value?[String(component)] }
        switch value {
        case .number(let number)?: return .some(number)
        case .null?: return .some(nil)
        default: return nil
        }
    }

    @Test("every key a command compares is a number of run's JSON with the same value, and its unit is the one the field's name says",
          arguments: ["coverdrop-designed", "proton-upload-designed", "zashi-shipped", "proton-upload-urlsession"])
    func comparedKeysAreRunFields(preset: String) throws {
        var scenario = try #require(Presets.scenario(named: preset))
        scenario.app.metrics = [.contentAge(), .interval("upload", doneWithin: .hours(2)), .event("sent")]
        let result = try SimulationRunner.run(scenario: scenario, seed: 3, days: 10)
        let json = ReportFormatter.json(result)
        for metric in ComparedMetric.standard(including: [scenario]) {
            guard let inJSON = Self.number(at: metric.key, in: json) else {
                Issue.record("\(metric.key) is not a field of run's JSON")
                continue
            }
            #expect(inJSON == metric.value(result).map(rounded), "\(metric.key): run says \(String(describing: inJSON))")
            #expect(metric.unit == ReportUnit.of(path: metric.key).rawValue, "\(metric.key): \(metric.unit)")
        }
    }

    @Test("the unit a name says, for names far from the common ones")
    func names() {
        let cases: [(String, ReportUnit)] = [
            ("work.allItemsLatencyMinutes.p90", .minutes), ("work.allItemsLatencyMinutes.censored", .count),
            ("app.contentAgeAtOpenMinutes.max", .minutes), ("app.contentAgeAtOpenMinutes.opens", .count),
            ("app.intervals.syncTime.begun", .count), ("app.intervals.upload.perDay", .perDay),
            ("app.intervals.upload.doneWithinHours", .hours), ("energy.byComponent.cpu", .joulesPerDay),
            ("energy.perBackgroundWake.byComponent.cpu", .joules), ("energy.perBackgroundWake.wakes", .count),
            ("device.batteryPercentByHour[3]", .percent), ("os.launchHourHistogram[3]", .count),
            ("device.hoursAtZeroBattery", .hours), ("device.thermalStateShares.fair", .fraction),
            ("metricKit.cumulativeForegroundTime", .seconds), ("os.submits", .count),
        ]
        for (path, unit) in cases { #expect(ReportUnit.of(path: path) == unit, "\(path)") }
        #expect(ReportUnit.count.described(days: 7) == "count in 7 days")
        #expect(ReportUnit.perDay.isPerDay && !ReportUnit.count.isPerDay)
    }

    @Test("docs/OUTPUT.md gives every number of the report's groups the unit its name says")
    func documentedUnits() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/OUTPUT.md"), encoding: .utf8)
        let result = try SimulationRunner.run(scenario: Scenario(), seed: 1, days: 2)
        let json = ReportFormatter.json(result)
        var checked = 0
        for group in ["device", "os", "work", "energy"] {
            guard let start = text.range(of: "### `\(group)`\n") else { Issue.record("no \(group) section"); continue }
            let section = text[start.upperBound...].prefix { _ in true }.components(separatedBy: "\n### ")[0]
            for line in section.split(separator: "\n") where line.hasPrefix("| `") {
                let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                let name = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                guard !name.contains("`"), Self.number(at: "\(group).\(name)", in: json) != nil else { continue }
                #expect(cells[2] == ReportUnit.of(path: "\(group).\(name)").rawValue, "\(group).\(name): docs say \(cells[2])")
                checked += 1
            }
        }
        #expect(checked > 30, "\(checked) fields checked")
    }
}
