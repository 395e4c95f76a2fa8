import SimKernel

/// A product of chances whose logarithm is wanted: multiplied as they come and its logarithm
/// taken only when the product grows small, not once a factor — a likelihood over a log is a
/// product of hundreds of thousands of chances, and the logarithm was a fifth of calibration's
/// time. The sum of logarithms and the logarithm of the product differ by rounding only.
struct DeferredLogarithm {
    /// The logarithm of the factors already taken out of `product`.
    private var taken = 0.0
    /// The factors not yet taken, at least 1e-200.
    private var product = 1.0

    /// Multiplies in `chance` (≥ 0); one below 1e-100 (0 counted as 1e-300) goes straight to
    /// the logarithm, so the product never underflows.
    mutating func multiply(by chance: Double) {
        guard chance >= 1e-100 else {
            taken += PortableMath.log(Swift.max(1e-300, chance))
            return
        }
        product *= chance
        if product < 1e-100 {
            taken += PortableMath.log(product)
            product = 1
        }
    }

    /// The logarithm of every factor multiplied in.
    var logarithm: Double { taken + PortableMath.log(product) }
}
