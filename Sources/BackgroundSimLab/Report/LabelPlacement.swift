/// Places the short labels written beside a chart's dots so that they neither overlap one
/// another nor cover a dot, and merges the labels of dots too close to label apart.
///
/// Greedy, in the order the labels are given: each label takes the first of eight positions
/// around its dot (right, left, above, below, then the diagonals) whose box is free and inside
/// the plot, or, if none is, the position that overlaps least. Text is estimated at 6.2 px a
/// character (the stylesheet's 11 px tick font), 12 px high.
struct LabelPlacement {
    /// A label's box in SVG pixels.
    struct Box: Equatable {
        var left, top, right, bottom: Double

        func overlap(_ other: Box) -> Double {
            Swift.max(0, Swift.min(right, other.right) - Swift.max(left, other.left))
                * Swift.max(0, Swift.min(bottom, other.bottom) - Swift.max(top, other.top))
        }
    }

    /// A label to place: its text, beside the dot at `(x, y)` in SVG pixels.
    struct Request {
        var text: String
        var x: Double
        var y: Double
    }

    /// A placed label: the text's baseline start and its box.
    struct Placed: Equatable {
        var text: String
        var x: Double
        var y: Double
        var box: Box
    }

    static let characterWidth = 6.2
    static let height = 12.0
    /// Space between a dot's centre and its label.
    static let gap = 7.0
    /// Dots closer than this (in pixels) on both axes share one label.
    static let mergeDistance = 10.0

    /// Labels whose dots lie within ``mergeDistance`` of an earlier one's are joined to it
    /// ("#4, #5"), in the given order.
    static func merged(_ requests: [Request]) -> [Request] {
        var result: [Request] = []
        for request in requests {
            if let index = result.firstIndex(where: { abs($0.x - request.x) < mergeDistance && abs($0.y - request.y) < mergeDistance }) {
                result[index].text += ", " + request.text
            } else {
                result.append(request)
            }
        }
        return result
    }

    /// Each request placed, in order, avoiding the labels placed before it, every dot in
    /// `dots` (centres, in pixels, radius 5) and the outside of `bounds`.
    static func place(_ requests: [Request], dots: [(x: Double, y: Double)], bounds: Box) -> [Placed] {
        let dotBoxes = dots.map { Box(left: $0.x - 5, top: $0.y - 5, right: $0.x + 5, bottom: $0.y + 5) }
        var placed: [Placed] = []
        for request in merged(requests) {
            let width = Double(request.text.count) * characterWidth
            let candidates = positions(request, width: width)
            func cost(_ box: Box) -> Double {
                let outside = box.left < bounds.left || box.right > bounds.right || box.top < bounds.top || box.bottom > bounds.bottom
                return placed.reduce(0) { $0 + $1.box.overlap(box) } + dotBoxes.reduce(0) { $0 + $1.overlap(box) } + (outside ? 1e6 : 0)
            }
            let costs = candidates.map { cost($0.box) }
            let best = costs.firstIndex(of: 0) ?? costs.indices.min { costs[$0] < costs[$1] }!
            placed.append(candidates[best])
        }
        return placed
    }

    /// The eight positions around a dot, in order of preference.
    private static func positions(_ request: Request, width: Double) -> [Placed] {
        let x = request.x, y = request.y, g = gap, h = height
        // (left edge, baseline) of each position; the box spans the baseline up by the height.
        let origins: [(Double, Double)] = [
            (x + g, y + h / 2 - 2),          // right
            (x - g - width, y + h / 2 - 2),  // left
            (x - width / 2, y - g),          // above
            (x - width / 2, y + g + h - 2),  // below
            (x + g - 2, y - g + 2),          // above right
            (x - g - width + 2, y - g + 2),  // above left
            (x + g - 2, y + g + h - 4),      // below right
            (x - g - width + 2, y + g + h - 4),  // below left
        ]
        return origins.map { origin in
            Placed(text: request.text, x: origin.0, y: origin.1,
                   box: Box(left: origin.0, top: origin.1 - h + 2, right: origin.0 + width, bottom: origin.1 + 2))
        }
    }
}
