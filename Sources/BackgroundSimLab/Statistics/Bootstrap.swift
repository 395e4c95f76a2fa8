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

    /// The 95 % percentile interval of `draws` (the 2.5 and 97.5 percentiles); `nil` with fewer
    /// than ``minimumDraws`` draws.
    package static func percentileInterval95(_ draws: [Double]) -> (low: Double, high: Double)? {
        guard draws.count >= minimumDraws else { return nil }
        let sorted = draws.sorted()
        return (Quantile.interpolated(sorted, 0.025)!, Quantile.interpolated(sorted, 0.975)!)
    }
}
