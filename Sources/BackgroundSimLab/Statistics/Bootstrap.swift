import SimKernel

/// The nonparametric bootstrap (Efron 1979): resampling units with replacement, and the
/// percentile interval of what the resamples give. Calibration resamples devices with it.
package enum Bootstrap {
    /// The least number of resampled values a percentile interval is read from.
    package static let minimumDraws = 20

    /// One resample of `count` units: `count` indices drawn uniformly with replacement from
    /// `stream`, in draw order.
    package static func resample(_ count: Int, using stream: inout RandomStream) -> [Int] {
        precondition(count > 0, "Bootstrap: nothing to resample")
        return (0..<count).map { _ in stream.int(in: 0..<count) }
    }

    /// A unit's weight in one resample of the Poisson bootstrap: how many times the resample
    /// takes it, drawn from a Poisson distribution of mean 1, by inversion of one uniform draw of
    /// `stream` (at most ``poissonWeightCap``).
    ///
    /// Drawn for each unit as it comes, the weights resample a stream of units whose number is
    /// not known in advance, and need no memory of the units: each resample's totals are summed
    /// as the units pass. With many units the resamples behave as the multinomial ones of
    /// ``resample(_:using:)`` (Hanley and MacGibbon 2006, "Creating non-parametric bootstrap
    /// samples using Poisson frequencies"; Chamandy, Muralidharan, Najmi and Naidu 2012,
    /// "Estimating uncertainty for massive data streams", Google).
    package static func poissonWeight(using stream: inout RandomStream) -> UInt8 {
        let draw = stream.unit()
        var weight = 0
        while weight < poissonWeightCap && draw >= poissonCumulative[weight] { weight += 1 }
        return UInt8(weight)
    }

    /// The largest weight ``poissonWeight(using:)`` gives: Poisson(1) exceeds it with
    /// probability about 10⁻²⁰, below any draw's resolution.
    package static let poissonWeightCap = 20

    /// P(Poisson(1) ≤ k) for k = 0 … cap − 1: e⁻¹ Σ 1/j!, summed in one fixed order.
    private static let poissonCumulative: [Double] = {
        var terms: [Double] = []
        var term = 0.36787944117144233  // e⁻¹
        for k in 0..<poissonWeightCap {
            if k > 0 { term /= Double(k) }
            terms.append(term)
        }
        var cumulative: [Double] = []
        var sum = 0.0
        for term in terms {
            sum += term
            cumulative.append(sum)
        }
        return cumulative
    }()

    /// The 95 % percentile interval of `draws` (the 2.5 and 97.5 percentiles); `nil` with fewer
    /// than ``minimumDraws`` draws.
    package static func percentileInterval95(_ draws: [Double]) -> (low: Double, high: Double)? {
        guard draws.count >= minimumDraws else { return nil }
        let sorted = draws.sorted()
        return (Quantile.interpolated(sorted, 0.025)!, Quantile.interpolated(sorted, 0.975)!)
    }
}
