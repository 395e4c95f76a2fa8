import BackgroundSim
@testable import BackgroundSimLab
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// An XML document read with Foundation's parser: whether it is well formed, and its elements.
final class ParsedXML: NSObject, XMLParserDelegate {
    struct Element {
        var name: String
        var namespace: String?
        var attributes: [String: String]
        var path: [String]
    }

    private(set) var elements: [Element] = []
    private(set) var text = ""
    private var stack: [String] = []
    private(set) var wellFormed = false
    /// The parser's error and where it stopped, when the document is not well formed.
    private(set) var problem: String?

    init(_ document: String) {
        super.init()
        let parser = XMLParser(data: Data(document.utf8))
        parser.shouldProcessNamespaces = true
        parser.delegate = self
        wellFormed = parser.parse()
        problem = parser.parserError.map { "\($0) at line \(parser.lineNumber), column \(parser.columnNumber)" }
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        elements.append(Element(name: name, namespace: namespaceURI, attributes: attributes, path: stack))
        stack.append(name)
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func elements(named name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The elements inside the element whose `id` is `id`.
    func elements(inside id: String) -> [Element] {
        guard let start = elements.firstIndex(where: { $0.attributes["id"] == id }) else { return [] }
        let depth = elements[start].path.count
        return Array(elements[(start + 1)...].prefix { $0.path.count > depth })
    }
}

@Suite("HTML reports")
struct ReportTests {
    static let comparison: Comparison = {
        let scenarios = ["proton-upload-designed", "coverdrop-designed", "zashi-designed"].map { ($0, Presets.scenario(named: $0)!) }
        return try! Comparison.run(scenarios, seeds: [1, 2, 3, 4], days: 10, jobs: 2)
    }()

    @Test("a comparison report is well-formed XHTML with inline SVG and each chart")
    func comparisonReport() throws {
        let html = ComparisonReport.html(Self.comparison, command: "bgsim compare proton-upload coverdrop-send zashi-sync")
        #expect(html.hasPrefix("<!DOCTYPE html>\n"))
        let document = ParsedXML(html)
        #expect(document.wellFormed, "\(document.problem ?? "")")
        let root = try #require(document.elements.first)
        #expect(root.name == "html" && root.namespace == "http://www.w3.org/1999/xhtml")
        // The battery levels are drawn only when they differ visibly (a point in some hour).
        let gap = (0..<24).map { hour in
            let medians = Self.comparison.profiles.map { $0.batteryPercentByHour[hour].median }
            return medians.max()! - medians.min()!
        }.max()!
        let levels = gap >= 1 ? ["battery-chart"] : []
        let svgs = document.elements(named: "svg")
        #expect(svgs.count == 5 + levels.count)
        #expect(svgs.allSatisfy { $0.namespace == "http://www.w3.org/2000/svg" && $0.attributes["viewBox"] != nil })
        // No scripts, no external assets.
        #expect(document.elements(named: "script").isEmpty)
        #expect(document.elements.allSatisfy { $0.attributes["src"] == nil && $0.attributes["href"] == nil })

        // Charts of the scenarios name all three; charts of differences name the two candidates.
        let perScenario = levels + ["energy-chart", "latency-chart", "launches-chart"]
        for chart in perScenario + ["battery-difference-chart", "latency-difference-chart"] {
            let inside = document.elements(inside: chart)
            #expect(inside.contains { $0.name == "svg" }, "\(chart) has a chart")
            #expect(inside.contains { $0.name == "figcaption" }, "\(chart) has a caption")
            #expect(inside.filter { $0.name == "text" && $0.attributes["class"] == "axis-title" }.count == 2, "\(chart) has two axis titles")
            #expect(inside.filter { $0.name == "text" && $0.attributes["class"] == "legend" }.count == (perScenario.contains(chart) ? 3 : 2),
                    "\(chart) names its series")
            #expect(inside.filter { $0.name == "text" && $0.attributes["class"] == "tick" }.count >= 4, "\(chart) has ticks")
        }
        if gap >= 1 {
            #expect(document.elements(inside: "battery-chart").filter { $0.name == "polyline" }.count == 3)
        }
        // A line and a 95 % band per candidate.
        #expect(document.elements(inside: "battery-difference-chart").filter { $0.name == "polyline" }.count == 2)
        #expect(document.elements(inside: "battery-difference-chart").filter { $0.name == "polygon" }.count == 2, "a band per candidate")
        #expect(document.elements(inside: "energy-chart").filter { $0.attributes["class"] == "bar" }.count == 3 * 5)
        #expect(document.elements(inside: "launches-chart").filter { $0.attributes["class"] == "bar" }.count == 3 * 24)
        #expect(document.elements(inside: "latency-chart").filter { $0.name == "polyline" }.count == 3)
        // A dot and a whisker per candidate and quantile.
        let whiskers = document.elements(inside: "latency-difference-chart").filter { $0.name == "path" && $0.attributes["stroke"] == "#333" }
        #expect(whiskers.count == 2 * ScenarioProfile.latencyLevels.count)

        // The summary table has a row per metric, the decisions tables a row per outcome that
        // happened; the verdicts a line per metric and candidate.
        let rows = document.elements(named: "tr").filter { $0.path.contains("tbody") }
        let decisionRows = [0, 1].map { kind in
            let profiles = Self.comparison.profiles.map { $0.decisionsPerDay[kind] }
            return (profiles.contains { $0.launched > 0 } ? 1 : 0)
                + LaunchDenial.allCases.indices.count { slot in profiles.contains { $0.denials[slot] > 0 } }
        }.reduce(0, +)
        #expect(decisionRows > 0)
        #expect(rows.count == ComparedMetric.standard.count + decisionRows)
        #expect(document.text.contains("Why requests waited"))
        let judgements = Comparison.Judgement.allCases.map { "\($0)" }
        let verdicts = document.elements(named: "li").filter { judgements.contains($0.attributes["class"] ?? "") }
        #expect(verdicts.count == 2 * ComparedMetric.standard.count)
        #expect(document.text.contains("bgsim compare proton-upload coverdrop-send zashi-sync"))
    }

    @Test("names with markup characters are escaped, and the stylesheet reads the same to XML and HTML parsers")
    func escaping() throws {
        var comparison = Self.comparison
        comparison.names = ["a<b", "c&d", "\"e\" > f"]
        let document = ParsedXML(ComparisonReport.html(comparison))
        #expect(document.wellFormed, "\(document.problem ?? "")")
        #expect(document.text.contains("a<b vs c&d vs \"e\" > f"))
        #expect(!HTMLPage.stylesheet.contains { "<>&\"".contains($0) })
    }

    @Test("the report does not depend on the number of jobs")
    func jobsDoNotMatter() throws {
        let scenarios = ["proton-upload-designed", "coverdrop-designed"].map { ($0, Presets.scenario(named: $0)!) }
        let one = try Comparison.run(scenarios, seeds: [7, 8, 9], days: 5, jobs: 1)
        let two = try Comparison.run(scenarios, seeds: [7, 8, 9], days: 5, jobs: 2)
        #expect(ComparisonReport.html(one) == ComparisonReport.html(two))
    }

    @Test("numbers in reports: three significant figures, whole numbers from 100, never an exponent")
    func numbers() {
        #expect(Format.significant(1234.6) == "1235")
        #expect(Format.significant(12.345) == "12.3")
        #expect(Format.significant(2) == "2")
        #expect(Format.significant(0.04) == "0.04")
        #expect(Format.significant(0.00012345) == "0.000123")
        #expect(Format.significant(-0.5) == "-0.5")
        #expect(Format.significant(0) == "0")
        #expect(Format.significant(1e-12) == "0", "below nine decimals")
        #expect(Format.signed(0.25) == "+0.25")
    }

    @Test("axes: round steps, tick labels without trailing zeros, logarithmic decades")
    func axes() {
        #expect(ChartAxis.roundStep(100) == 20)
        #expect(ChartAxis.roundStep(7) == 2)
        #expect(ChartAxis.roundStep(0.3) == 0.1)
        #expect(ChartAxis.label(0.25) == "0.25")
        #expect(ChartAxis.label(20) == "20")
        #expect(ChartAxis.label(-0.5) == "-0.5")
        #expect(ChartAxis.label(1500) == "1500")
        let linear = ChartAxis(title: "x").resolved(for: 3...97)
        #expect(linear.bounds == 0...100)
        #expect(linear.ticks.map(\.1) == ["0", "20", "40", "60", "80", "100"])
        let withZero = ChartAxis(title: "x", includesZero: true).resolved(for: 12...37)
        #expect(withZero.bounds.lowerBound == 0)
        let log = ChartAxis(title: "x", scale: .logarithmic).resolved(for: 0.03...3_000)
        #expect(log.bounds == 0.01...10_000)
        #expect(log.ticks.map(\.1) == ["0.01", "0.1", "1", "10", "100", "1000", "10000"])
        let fewDecades = ChartAxis(title: "x", scale: .logarithmic).resolved(for: 2...40)
        #expect(fewDecades.ticks.map(\.1) == ["1", "2", "5", "10", "20", "50", "100"])
        #expect(ChartAxis(title: "x", scale: .logarithmic).fraction(0, in: 1...100) == 0, "zero clamps to the low end")
    }
}

@Suite("Sweep reports")
struct SweepReportTests {
    static let definition = """
        {
          "name": "delays", "preset": "coverdrop-designed",
          "axes": [ { "path": "app.policy.parameters.meanDelayMinutes", "values": [5, 30, 120] },
                    { "path": "app.policy.parameters.messagesPerRun", "values": [1, 5] } ],
          "seeds": 3, "days": 10
        }
        """

    static func summary() throws -> SweepSummary {
        let definition = try SweepDefinition.decode(Self.definition, source: "delays.json")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-report-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let results = try SweepRunner.run(definition, source: "delays.json", jobs: 2, outputPath: path)
        return try SweepSummary(definition: definition, results: results)
    }

    @Test("a sweep report is well-formed XHTML with the Pareto plot, the best cells and every cell")
    func sweepReport() throws {
        let summary = try Self.summary()
        let document = ParsedXML(SweepReport.html(summary))
        #expect(document.wellFormed, "\(document.problem ?? "")")
        let chart = document.elements(inside: "pareto-chart")
        let front = summary.paretoFront
        #expect(!front.isEmpty)
        // A hollow dot per cell and per cell that cannot be ruled off the front, and a filled dot
        // per distinct point of the front joined by a line; every cell has its two whiskers.
        #expect(chart.filter { $0.name == "circle" && $0.attributes["fill"] == "white" }.count
                == summary.cells.count + summary.possiblyOnFront.count)
        #expect(chart.filter { $0.name == "path" && $0.attributes["stroke"] == HTMLPage.faint }.count == 2 * summary.cells.count)
        #expect(chart.filter { $0.name == "circle" && $0.attributes["fill"] != "white" }.count >= 1)
        #expect(chart.filter { $0.name == "polyline" }.count == 1)
        #expect(chart.filter { $0.name == "text" && $0.attributes["class"] == "axis-title" }.count == 2)
        // Every cell in the cells table and again in the decisions table.
        let rows = document.elements(named: "tr").filter { $0.path.contains("tbody") }
        #expect(rows.count == 2 * summary.cells.count)
        #expect(document.text.contains("Why requests waited, by cell"))
        // Each cell carries its decisions: refresh launches for the CoverDrop sweep, and waits.
        for cell in summary.cells {
            let refresh = try #require(cell.decisions.first { $0.kind == "appRefresh" })
            #expect(refresh.launched > 0 && !refresh.waits.isEmpty)
            #expect(refresh.waits.map(\.perDay) == refresh.waits.map(\.perDay).sorted(by: >), "most frequent first")
        }
        #expect(document.elements(named: "li").count == 2, "the best cell for each objective")
        #expect(document.text.contains("p90 latency, all items (min)"))
    }

    @Test("the Markdown, CSV and JSON summaries agree on the front and the best cells")
    func formats() throws {
        let summary = try Self.summary()
        let front = summary.paretoFront.map(\.index)
        let lines = SweepFormatter.csv(summary).split(separator: "\n")
        #expect(lines[0] == "# " + summary.recommendation)
        let onFront = lines.dropFirst(2).enumerated().filter { $0.element.split(separator: ",").dropLast().last == "true" }
        #expect(onFront.map(\.offset) == front)
        let json = SweepFormatter.json(summary)
        guard case .array(let listed)? = json["paretoFront"] else { Issue.record("no front"); return }
        #expect(listed == front.map { .number(Double($0)) })
        let markdown = SweepFormatter.markdown(summary)
        #expect(markdown.split(separator: "\n").filter { $0.hasSuffix("★ |") }.count == front.count)
        let best = try #require(summary.best(for: 0))
        #expect(markdown.contains("p90 latency, all items: cell \(best.index) ("))
    }
}
