/// The Nelder–Mead simplex method for minimising a function of a few variables without
/// derivatives (Nelder & Mead 1965, *The Computer Journal* 7(4):308–313), with the standard
/// coefficients (reflection 1, expansion 2, contraction ½, shrink ½). Deterministic: the same
/// function and start give the same steps on every machine.
package enum NelderMead {
    package struct Result {
        package var point: [Double]
        package var value: Double
        package var evaluations: Int
    }

    /// Minimises `f` from `start`, the initial simplex `start` plus `step` along each axis;
    /// stops when the simplex's values span less than `tolerance`, when every point lies within
    /// `sizeTolerance` of the best along every axis (0: never), or after `maximumEvaluations`.
    package static func minimise(_ f: ([Double]) -> Double, start: [Double], step: Double, tolerance: Double = 1e-6,
                         sizeTolerance: Double = 0, maximumEvaluations: Int = 400) -> Result {
        let n = start.count
        var simplex = [start] + (0..<n).map { axis in start.enumerated().map { $0.offset == axis ? $0.element + step : $0.element } }
        var values = simplex.map(f)
        var evaluations = simplex.count
        func centroid(excluding worst: Int) -> [Double] {
            (0..<n).map { axis in simplex.indices.filter { $0 != worst }.reduce(0) { $0 + simplex[$1][axis] } / Double(n) }
        }
        func along(_ from: [Double], _ to: [Double], _ t: Double) -> [Double] { zip(from, to).map { $0 + t * ($1 - $0) } }
        while evaluations < maximumEvaluations {
            let order = values.indices.sorted { (values[$0], $0) < (values[$1], $1) }
            simplex = order.map { simplex[$0] }
            values = order.map { values[$0] }
            if values[n] - values[0] < tolerance { break }
            if simplex.dropFirst().allSatisfy({ vertex in zip(vertex, simplex[0]).allSatisfy { abs($0 - $1) < sizeTolerance } }) { break }
            let center = centroid(excluding: n)
            let reflected = along(simplex[n], center, 2)
            let reflectedValue = f(reflected)
            evaluations += 1
            if reflectedValue < values[0] {
                let expanded = along(simplex[n], center, 3)
                let expandedValue = f(expanded)
                evaluations += 1
                if expandedValue < reflectedValue { (simplex[n], values[n]) = (expanded, expandedValue) } else { (simplex[n], values[n]) = (reflected, reflectedValue) }
            } else if reflectedValue < values[n - 1] {
                (simplex[n], values[n]) = (reflected, reflectedValue)
            } else {
                let outside = reflectedValue < values[n]
                let contracted = outside ? along(simplex[n], center, 1.5) : along(simplex[n], center, 0.5)
                let contractedValue = f(contracted)
                evaluations += 1
                if contractedValue < Swift.min(reflectedValue, values[n]) {
                    (simplex[n], values[n]) = (contracted, contractedValue)
                } else {
                    for index in 1...n {
                        simplex[index] = along(simplex[0], simplex[index], 0.5)
                        values[index] = f(simplex[index])
                    }
                    evaluations += n
                }
            }
        }
        let best = values.indices.min { (values[$0], $0) < (values[$1], $1) }!
        return Result(point: simplex[best], value: values[best], evaluations: evaluations)
    }
}
