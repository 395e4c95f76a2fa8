import BackgroundSim
@testable import BackgroundSimLab
import Testing

/// Checks a text table: each header cell starts a column; on every row each column starts at its
/// header's column with two spaces before it, and each cell is whole (`expected` rows of cells).
func expectAligned(_ lines: [String], header: [String], rows expected: [[String]], sourceLocation: SourceLocation = #_sourceLocation) {
    guard let headerLine = lines.first(where: { line in header.allSatisfy { line.contains($0) } && line.hasPrefix(header[0]) }) else {
        Issue.record("no header line in:\n\(lines.joined(separator: "\n"))", sourceLocation: sourceLocation)
        return
    }
    var starts: [Int] = []
    var from = headerLine.startIndex
    for cell in header {
        guard let range = headerLine.range(of: cell, range: from..<headerLine.endIndex) else { return }
        starts.append(headerLine.distance(from: headerLine.startIndex, to: range.lowerBound))
        from = range.upperBound
    }
    for row in expected {
        guard let line = lines.first(where: { $0.hasPrefix(row[0] + " ") }) else {
            Issue.record("no row for \(row[0])", sourceLocation: sourceLocation)
            continue
        }
        let characters = Array(line)
        for (index, cell) in row.enumerated() {
            let start = starts[index]
            let end = start + cell.count
            #expect(end <= characters.count && String(characters[start..<end]) == cell, "cell \(index) of \(line)", sourceLocation: sourceLocation)
            if index > 0 { #expect(characters[start - 2] == " " && characters[start - 1] == " ", "two spaces before \(cell)", sourceLocation: sourceLocation) }
        }
    }
}

@Suite("Text tables")
struct TextTableTests {
    @Test("columns are as wide as their widest cell: long names, tiny and huge numbers are whole and never touch")
    func render() {
        let name = String(repeating: "a-configuration-with-a-long-name-", count: 3)
        let rows = [["1", Format.significant(2e-9), Format.significant(246_913_578_025), name],
                    ["22", Format.significant(123_456_789.5), "0", "b"]]
        let lines = TextTable.render(header: ["#", "tiny", "huge", "settings"], rows: rows)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { !$0.hasSuffix(" ") })
        expectAligned(lines, header: ["#", "tiny", "huge", "settings"], rows: rows)
        #expect(lines[1].contains("0.000000002") && lines[1].contains("246913578025"))
    }

    @Test("the tuning table keeps long settings and extreme numbers whole and aligned")
    func tuningTable() {
        let latency = ComparedMetric(key: "latency", label: "p90 work latency", unit: "min", margin: 1, better: .lower) { _ in nil }
        let battery = ComparedMetric(key: "battery", label: "app battery use", unit: "%/day", margin: 0.01, better: .lower) { _ in nil }
        let objective = Objective(.minimize, latency, subjectTo: [.init(metric: battery, atMost: true, value: 1)])
        let procedure = TuningProcedure(objective: objective, indifferenceZone: 1, tolerances: [0.01])
        let samples = TuningProcedure.Samples(
            objective: [[1e-9, 2e-9, 1e-9, 2e-9, 1e-9, 2e-9, 1e-9, 2e-9, 1e-9, 2e-9], (0..<10).map { 1.5e11 + Double($0) }],
            bounds: [[Array(repeating: 1e-7, count: 10), Array(repeating: 0.5, count: 10)]])
        let outcome = procedure.select(samples, screening: procedure.screen(samples))
        let long = "meanDelayMinutes=" + String(repeating: "9", count: 40) + " minimumRunIntervalMinutes=15"
        let tuning = Tuning(names: ["x=1", long], procedure: procedure, outcome: outcome, days: 1, firstSeed: 1)
        let lines = TuningFormatter.table(tuning, name: "t").split(separator: "\n").map(String.init)
        let (header, rows) = TuningFormatter.rows(tuning)
        expectAligned(lines, header: header, rows: rows)
        #expect(lines.contains { $0.contains(long) })
    }
}
