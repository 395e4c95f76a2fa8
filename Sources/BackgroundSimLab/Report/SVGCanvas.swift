/// The drawing surface of one chart: a fixed-size SVG with a legend above a plot area, and
/// axes, grid lines and marks placed by fractions of that area (0 = left or bottom, 1 = right
/// or top).
///
/// Text uses the report's stylesheet classes (`legend`, `tick`, `axis-title`), so charts follow
/// the page's font.
package struct SVGCanvas {
    package static let width = 760.0
    package static let height = 320.0
    package let plotLeft: Double
    package let plotRight = SVGCanvas.width - 20
    package let plotTop: Double
    package let plotBottom = SVGCanvas.height - 52
    private var content = Markup()
    private let label: String

    /// A canvas whose legend names each series in its colour; `label` is the chart's accessible
    /// name; `plotLeft` leaves room for the vertical axis (or for row labels).
    package init(label: String, legend: [(name: String, color: String)], plotLeft: Double = 70) {
        self.label = label
        self.plotLeft = plotLeft
        // Lay the legend out in rows, estimating text at 6.8 px a character.
        var x = plotLeft, row = 0
        var placed: [(name: String, color: String, x: Double, row: Int)] = []
        for entry in legend {
            let width = 24 + Double(entry.name.count) * 6.8
            if x + width > plotRight && x > plotLeft { x = plotLeft; row += 1 }
            placed.append((entry.name, entry.color, x, row))
            x += width + 14
        }
        plotTop = 18 + Double(legend.isEmpty ? 0 : row + 1) * 20
        for entry in placed {
            let y = 14 + Double(entry.row) * 20
            content.empty("rect", [("x", Self.number(entry.x)), ("y", Self.number(y - 10)), ("width", "14"), ("height", "12"),
                                   ("rx", "2"), ("fill", entry.color)])
            content.element("text", [("class", "legend"), ("x", Self.number(entry.x + 20)), ("y", Self.number(y))], entry.name)
        }
    }

    /// The x coordinate of a fraction of the plot's width.
    package func x(_ fraction: Double) -> Double { plotLeft + fraction * (plotRight - plotLeft) }

    /// The y coordinate of a fraction of the plot's height, from the bottom.
    package func y(_ fraction: Double) -> Double { plotBottom - fraction * (plotBottom - plotTop) }

    /// The vertical axis: grid lines and labels at `ticks`, and its title along the side.
    package mutating func verticalAxis(title: String, ticks: [(fraction: Double, label: String)]) {
        for tick in ticks {
            let y = Self.number(y(tick.fraction))
            content.empty("line", [("class", "grid"), ("x1", Self.number(plotLeft)), ("x2", Self.number(plotRight)), ("y1", y), ("y2", y)])
            content.element("text", [("class", "tick"), ("x", Self.number(plotLeft - 6)), ("y", y), ("dy", "4"), ("text-anchor", "end")], tick.label)
        }
        let middle = Self.number((plotTop + plotBottom) / 2)
        content.element("text", [("class", "axis-title"), ("transform", "translate(16 \(middle)) rotate(-90)"), ("text-anchor", "middle")], title)
    }

    /// The horizontal axis: the base line, tick marks and labels at `ticks`, and its title below.
    package mutating func horizontalAxis(title: String, ticks: [(fraction: Double, label: String)]) {
        let base = Self.number(plotBottom)
        content.empty("line", [("class", "axis"), ("x1", Self.number(plotLeft)), ("x2", Self.number(plotRight)), ("y1", base), ("y2", base)])
        for tick in ticks {
            let x = Self.number(x(tick.fraction))
            content.empty("line", [("class", "axis"), ("x1", x), ("x2", x), ("y1", base), ("y2", Self.number(plotBottom + 5))])
            content.element("text", [("class", "tick"), ("x", x), ("y", Self.number(plotBottom + 19)), ("text-anchor", "middle")], tick.label)
        }
        content.element("text", [("class", "axis-title"), ("x", Self.number((plotLeft + plotRight) / 2)), ("y", Self.number(plotBottom + 42)),
                                 ("text-anchor", "middle")], title)
    }

    /// A line through points given as plot fractions.
    package mutating func line(_ points: [(Double, Double)], color: String, width: Double = 2, dashed: Bool = false) {
        guard !points.isEmpty else { return }
        var attributes = [("points", path(points)), ("fill", "none"), ("stroke", color), ("stroke-width", Self.number(width)),
                          ("stroke-linejoin", "round")]
        if dashed { attributes.append(("stroke-dasharray", "6 4")) }
        content.empty("polyline", attributes)
    }

    /// A filled area between two lines of plot fractions (the band between `low` and `high`).
    package mutating func band(low: [(Double, Double)], high: [(Double, Double)], color: String, opacity: Double = 0.18) {
        guard !low.isEmpty else { return }
        content.empty("polygon", [("points", path(low + high.reversed())), ("fill", color), ("fill-opacity", Self.number(opacity)), ("stroke", "none")])
    }

    /// A rectangle from `(x0, y0)` to `(x1, y1)` in plot fractions, with a hover text.
    package mutating func bar(x0: Double, x1: Double, y0: Double, y1: Double, color: String, hover: String) {
        let left = x(x0), right = x(x1), bottom = y(y0), top = y(y1)
        content.open("rect", [("class", "bar"), ("x", Self.number(left)), ("y", Self.number(Swift.min(top, bottom))), ("width", Self.number(right - left)),
                              ("height", Self.number(Swift.abs(bottom - top))), ("fill", color)])
        content.element("title", [], hover)
        content.close("rect")
    }

    /// The default colour of an interval's whisker.
    package static let whiskerColor = "#333"

    /// A vertical interval at plot fraction `x` from `low` to `high`, with short caps.
    package mutating func whisker(x fx: Double, low: Double, high: Double, color: String = SVGCanvas.whiskerColor) {
        let x = x(fx), bottom = y(low), top = y(high)
        let path = "M\(Self.number(x - 4)) \(Self.number(bottom))H\(Self.number(x + 4))M\(Self.number(x)) \(Self.number(bottom))"
            + "V\(Self.number(top))M\(Self.number(x - 4)) \(Self.number(top))H\(Self.number(x + 4))"
        content.empty("path", [("d", path), ("stroke", color), ("stroke-width", "1.2"), ("fill", "none")])
    }

    /// A horizontal whisker at height `fy` from `low` to `high` (plot fractions).
    package mutating func horizontalWhisker(y fy: Double, low: Double, high: Double, color: String = SVGCanvas.whiskerColor) {
        let y = y(fy), left = x(low), right = x(high)
        let path = "M\(Self.number(left)) \(Self.number(y - 4))V\(Self.number(y + 4))M\(Self.number(left)) \(Self.number(y))"
            + "H\(Self.number(right))M\(Self.number(right)) \(Self.number(y - 4))V\(Self.number(y + 4))"
        content.empty("path", [("d", path), ("stroke", color), ("stroke-width", "1.2"), ("fill", "none")])
    }

    /// A dot at plot fractions `(fx, fy)`, with a hover text.
    package mutating func dot(_ fx: Double, _ fy: Double, color: String, radius: Double = 4, filled: Bool = true, hover: String) {
        content.open("circle", [("cx", Self.number(x(fx))), ("cy", Self.number(y(fy))), ("r", Self.number(radius)),
                                ("fill", filled ? color : "white"), ("stroke", color), ("stroke-width", "1.5")])
        content.element("title", [], hover)
        content.close("circle")
    }

    /// A row's label, right-aligned in the margin left of the plot at height fraction `fy`.
    package mutating func rowLabel(_ text: String, _ fy: Double) {
        content.element("text", [("class", "tick"), ("x", Self.number(plotLeft - 8)), ("y", Self.number(y(fy) + 4)), ("text-anchor", "end")], text)
    }

    /// A small label with its baseline starting at `(x, y)` in pixels.
    package mutating func text(_ text: String, x: Double, y: Double) {
        content.element("text", [("class", "tick"), ("x", Self.number(x)), ("y", Self.number(y))], text)
    }

    /// The finished `<svg>` element.
    package var svg: Markup {
        var svg = Markup()
        svg.open("svg", [("xmlns", "http://www.w3.org/2000/svg"), ("viewBox", "0 0 \(Self.number(Self.width)) \(Self.number(Self.height))"),
                         ("width", Self.number(Self.width)), ("height", Self.number(Self.height)), ("role", "img"), ("aria-label", label)])
        svg.element("title", [], label)
        svg.append(content)
        svg.close("svg")
        return svg
    }

    private func path(_ points: [(Double, Double)]) -> String {
        points.map { Self.number(x($0.0)) + "," + Self.number(y($0.1)) }.joined(separator: " ")
    }

    /// A coordinate to one decimal: enough for the screen, and the same bytes every time.
    package static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10, fraction = Swift.abs(Int(tenths)) % 10
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
