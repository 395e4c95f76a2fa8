import BackgroundSim
@testable import BackgroundSimLab
import Foundation
import SimKernel
import Testing

/// Charts and traces held to the values they draw: each mark's coordinates are worked out here
/// from the data and the plot's geometry, not read back from the code that drew them.
@Suite("Charts and traces draw their values")
struct ChartValueTests {
    /// The plot area of a chart with one legend row: x from 70 to 740, y from 268 (bottom) up to
    /// 38 (SVGCanvas's layout: 760 × 320, a 70-pixel left margin, 20 on the right, 52 below, a
    /// legend row of 20 above 18).
    static let left = 70.0, right = 740.0, bottom = 268.0, top = 38.0

    /// The attribute values `name` takes in `svg`, in order.
    static func attributes(_ name: String, in svg: String) -> [String] {
        svg.components(separatedBy: "\(name)=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("a line's points sit where its values fall on fixed axes")
    func linePoints() throws {
        let chart = LineChart(label: "test",
                              x: ChartAxis(title: "hour", bounds: 0...10),
                              y: ChartAxis(title: "level", bounds: 0...20),
                              series: [LineChart.Series(name: "a", color: "#000", points: [(0, 0), (5, 10), (10, 15)])])
        let points = try #require(Self.attributes("points", in: chart.svg.text).first)
        // x: 0, 5, 10 of 0–10 → 70, 405, 740; y: 0, 10, 15 of 0–20 → 268, 153, 95.5.
        #expect(points == "70,268 405,153 740,95.5")
    }

    @Test("a bar's height is its value's share of the axis, and its base is zero")
    func barHeights() {
        let chart = BarChart(label: "test", categories: ["a", "b"], xTitle: "category", y: ChartAxis(title: "J/day", bounds: 0...8),
                             series: [(name: "s", color: "#000", values: [2, 8])], unit: "J/day")
        // The bars' own attributes, each rect up to its closing tag.
        let bars = chart.svg.text.components(separatedBy: "<rect class=\"bar\"").dropFirst().map { String($0.prefix { $0 != ">" }) }
        func values(_ name: String) -> [Double] { bars.compactMap { Self.attributes(name, in: $0).first.flatMap(Double.init) } }
        // Plot height 230: 2 of 8 is 57.5 px above the base, 8 of 8 the whole 230.
        #expect(values("height") == [57.5, 230])
        #expect(values("y") == [Self.bottom - 57.5, Self.top])
        // Each bar takes 80 % of its category's slot (335 px): 268 px wide, 33.5 px into its slot.
        #expect(values("width") == [268, 268])
        #expect(values("x") == [Self.left + 33.5, Self.left + 335 + 33.5])
    }

    @Test("a trace's task span starts at the task's launch and lasts until its completion, in microseconds; decisions are instants at their times")
    func perfettoSpans() throws {
        var scenario = Presets.scenario(named: "probe-refresh")!
        scenario.system.launchModel = .eager
        let trace = PerfettoTrace()
        var log: [SystemLogEntry] = []
        _ = try SimulationRunner.run(scenario: scenario, seed: 1, days: 2, log: { log.append($0); trace.record($0) }, configure: { _ in },
                                     observer: { _, now, device, system in trace.observe(at: now, device: device, system: system) })
        let document = trace.finish(at: .start + .days(2), title: "t")
        guard case .array(let events)? = document["traceEvents"] else { Issue.record("no events"); return }
        let launches = log.compactMap { entry -> (SimInstant, UInt32)? in
            if case .taskLaunch(_, _, let serial, _) = entry.event { return (entry.time, serial) }
            return nil
        }
        let completions = log.compactMap { entry -> (SimInstant, UInt32)? in
            if case .taskCompleted(_, let serial, _) = entry.event { return (entry.time, serial) }
            return nil
        }
        let launch = try #require(launches.first)
        let completion = try #require(completions.first { $0.1 == launch.1 })
        let spans = events.filter { $0["ph"] == .string("X") && $0["tid"] == .number(3) }
        let span = try #require(spans.first)
        #expect(span["ts"] == .number(Double(launch.0.nanosecondsSinceStart) / 1_000))
        #expect(span["dur"] == .number(Double(launch.0.duration(to: completion.0).nanoseconds) / 1_000))
        #expect(spans.count == min(launches.count, completions.count))
        let decisions = events.filter { $0["tid"] == .number(8) && $0["ph"] == .string("i") }
        let decisionTimes = log.filter { $0.event.kind == .launchDecision }.map { JSONValue.number(Double($0.time.nanosecondsSinceStart) / 1_000) }
        #expect(decisions.map { $0["ts"]! } == decisionTimes)
    }

    @Test("dot labels in a crowded cluster overlap neither each other nor any dot, and dots too close to label apart share one label")
    func labelsDoNotCollide() {
        // Four dots a label's width apart on one row, and two 4 px apart (closer than the
        // 10 px merge distance): the sweep report's "#4 #5" case.
        let dots: [(x: Double, y: Double)] = [(300, 150), (318, 150), (336, 150), (354, 150), (500, 150), (504, 152)]
        let requests = dots.enumerated().map { LabelPlacement.Request(text: "#\($0.offset)", x: $0.element.x, y: $0.element.y) }
        let bounds = LabelPlacement.Box(left: 70, top: 38, right: 740, bottom: 268)
        let placed = LabelPlacement.place(requests, dots: dots, bounds: bounds)
        #expect(placed.map(\.text) == ["#0", "#1", "#2", "#3", "#4, #5"])
        for (index, label) in placed.enumerated() {
            for other in placed[(index + 1)...] { #expect(label.box.overlap(other.box) == 0, "\(label.text) and \(other.text)") }
            for dot in dots {
                let box = LabelPlacement.Box(left: dot.x - 5, top: dot.y - 5, right: dot.x + 5, bottom: dot.y + 5)
                #expect(label.box.overlap(box) == 0, "\(label.text) covers the dot at \(dot.x)")
            }
            #expect(label.box.left >= bounds.left && label.box.right <= bounds.right && label.box.top >= bounds.top && label.box.bottom <= bounds.bottom)
        }
    }
}
