import BackgroundSim

/// A chart of series over a numeric x axis: lines, bands around them, and dots.
package struct LineChart {
    package struct Series {
        enum Style { case line, dashedLine, dots, lineWithDots }

        var name: String
        var color: String
        var points: [(x: Double, y: Double)]
        var style: Style = .line
        /// A shaded band around the line, as (x, low, high).
        var band: [(x: Double, low: Double, high: Double)] = []
        /// Hover texts for the dots, one per point, when the style draws dots.
        var hovers: [String] = []
        /// Labels written beside the dots, one per point, when the style draws dots.
        var labels: [String] = []
        /// A vertical interval at each point, (low, high), drawn as a whisker; empty for none.
        var errorBars: [(low: Double, high: Double)] = []
        /// A horizontal interval at each point, (low, high); empty for none.
        var horizontalErrorBars: [(low: Double, high: Double)] = []
        /// The intervals' colour: dark by default, where the interval is the point of the chart;
        /// light where the dots are, and many intervals would hide them.
        var errorBarColor = SVGCanvas.whiskerColor
    }

    /// The chart's accessible name.
    package var label: String
    package var x: ChartAxis
    package var y: ChartAxis
    package var series: [Series]

    package var svg: Markup {
        let xs = series.flatMap { $0.points.map(\.x) + $0.band.map(\.x) + $0.horizontalErrorBars.flatMap { [$0.low, $0.high] } }
        let ys = series.flatMap { $0.points.map(\.y) + $0.band.flatMap { [$0.low, $0.high] } + $0.errorBars.flatMap { [$0.low, $0.high] } }
        let xAxis = x.resolved(for: Self.range(xs, positiveOnly: x.scale == .logarithmic))
        let yAxis = y.resolved(for: Self.range(ys, positiveOnly: y.scale == .logarithmic))
        func fx(_ value: Double) -> Double { x.fraction(value, in: xAxis.bounds) }
        func fy(_ value: Double) -> Double { y.fraction(value, in: yAxis.bounds) }

        var canvas = SVGCanvas(label: label, legend: series.map { ($0.name, $0.color) })
        canvas.verticalAxis(title: y.title, ticks: yAxis.ticks.map { (fy($0.0), $0.1) })
        canvas.horizontalAxis(title: x.title, ticks: xAxis.ticks.map { (fx($0.0), $0.1) })
        for series in series where !series.band.isEmpty {
            canvas.band(low: series.band.map { (fx($0.x), fy($0.low)) }, high: series.band.map { (fx($0.x), fy($0.high)) }, color: series.color)
        }
        for series in series {
            for (point, bar) in zip(series.points, series.errorBars) where bar.low.isFinite && bar.high.isFinite {
                canvas.whisker(x: fx(point.x), low: fy(bar.low), high: fy(bar.high), color: series.errorBarColor)
            }
            for (point, bar) in zip(series.points, series.horizontalErrorBars) where bar.low.isFinite && bar.high.isFinite {
                canvas.horizontalWhisker(y: fy(point.y), low: fx(bar.low), high: fx(bar.high), color: series.errorBarColor)
            }
        }
        var labels: [LabelPlacement.Request] = [], dots: [(x: Double, y: Double)] = []
        for series in series {
            let points = series.points.map { (fx($0.x), fy($0.y)) }
            switch series.style {
            case .line, .lineWithDots: canvas.line(points, color: series.color)
            case .dashedLine: canvas.line(points, color: series.color, dashed: true)
            case .dots: break
            }
            if series.style == .dots || series.style == .lineWithDots {
                for (index, point) in points.enumerated() {
                    canvas.dot(point.0, point.1, color: series.color, filled: series.style == .lineWithDots,
                               hover: index < series.hovers.count ? series.hovers[index] : series.name)
                    dots.append((canvas.x(point.0), canvas.y(point.1)))
                    if index < series.labels.count {
                        labels.append(LabelPlacement.Request(text: series.labels[index], x: canvas.x(point.0), y: canvas.y(point.1)))
                    }
                }
            }
        }
        // Labels last, placed clear of each other and of every dot.
        let bounds = LabelPlacement.Box(left: canvas.plotLeft, top: canvas.plotTop, right: canvas.plotRight, bottom: canvas.plotBottom)
        for label in LabelPlacement.place(labels, dots: dots, bounds: bounds) {
            canvas.text(label.text, x: label.x, y: label.y)
        }
        return canvas.svg
    }

    /// The span of finite `values` (positive ones only for a logarithmic axis); `nil` if none.
    package static func range(_ values: [Double], positiveOnly: Bool) -> ClosedRange<Double>? {
        let usable = values.filter { $0.isFinite && (!positiveOnly || $0 > 0) }
        guard let low = usable.min(), let high = usable.max() else { return nil }
        return low...high
    }
}

/// A chart of values in categories (hours, energy components), one bar per series in each.
package struct BarChart {
    package var label: String
    package var categories: [String]
    /// Show every n-th category's label when there are too many to fit.
    package var labelEvery = 1
    package var xTitle: String
    package var y: ChartAxis
    package var series: [(name: String, color: String, values: [Double])]
    /// The unit in hover texts ("J/day").
    package var unit: String
    /// Per series, the half-width of each bar's interval, drawn as a whisker; empty for none.
    package var errors: [[Double]] = []

    package var svg: Markup {
        let tops = series.indices.flatMap { index in
            series[index].values.enumerated().map { $0.element + (index < errors.count && $0.offset < errors[index].count ? errors[index][$0.offset] : 0) }
        }
        let yAxis = y.resolved(for: LineChart.range(series.flatMap(\.values) + tops + [0], positiveOnly: false))
        func fy(_ value: Double) -> Double { y.fraction(value, in: yAxis.bounds) }
        var canvas = SVGCanvas(label: label, legend: series.map { ($0.name, $0.color) })
        canvas.verticalAxis(title: y.title, ticks: yAxis.ticks.map { (fy($0.0), $0.1) })
        let slot = 1 / Double(Swift.max(1, categories.count))
        let ticks = categories.indices.filter { $0 % labelEvery == 0 }.map { (slot * (Double($0) + 0.5), categories[$0]) }
        canvas.horizontalAxis(title: xTitle, ticks: ticks)
        let barWidth = slot * 0.8 / Double(Swift.max(1, series.count))
        for (category, name) in categories.enumerated() {
            for (index, entry) in series.enumerated() where category < entry.values.count {
                let x0 = slot * Double(category) + slot * 0.1 + barWidth * Double(index)
                let value = entry.values[category]
                let error = index < errors.count && category < errors[index].count ? errors[index][category] : nil
                canvas.bar(x0: x0, x1: x0 + barWidth, y0: fy(0), y1: fy(value), color: entry.color,
                           hover: "\(entry.name), \(name): \(Format.significant(value))" + (error.map { " ± \(Format.significant($0))" } ?? "") + " \(unit)")
                if let error, error > 0 {
                    canvas.whisker(x: x0 + barWidth / 2, low: fy(value - error), high: fy(value + error))
                }
            }
        }
        return canvas.svg
    }
}
