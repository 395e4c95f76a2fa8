import BackgroundSim
import SimKernel
@testable import BackgroundSimCalibration
import Testing

@Suite("The likelihood's arithmetic: deferred logarithms, stepped fades")
struct LikelihoodArithmeticTests {
    @Test("a logarithm taken once per product equals the sum of the factors' logarithms, with factors from 1 down to 0 (counted as 1e-300)")
    func deferredLogarithm() {
        var deferred = DeferredLogarithm()
        var summed = 0.0
        var stream = RandomStream(seed: 7, label: StreamLabel("test.deferred-log"), entity: 0)
        for index in 0..<100_000 {
            // Mostly chances near 1, some small, a few below 1e-100, and one 0.
            let chance = index == 50_000 ? 0 : index % 997 == 0 ? 1e-120 : index % 13 == 0 ? stream.unit() * 1e-3 : 1 - 0.01 * stream.unit()
            deferred.multiply(by: chance)
            summed += PortableMath.log(Swift.max(1e-300, chance))
        }
        #expect(summed < -30_000)
        #expect(abs(deferred.logarithm - summed) <= 1e-9 * abs(summed), "\(deferred.logarithm) vs \(summed)")
    }

    @Test("the stepped fade equals 2^(−days ÷ half-life) at runs of 1 to 16 steps, across longer gaps and after the app is used again")
    func steppedFade() {
        let halfLife = 1.7, stepDays = 15.0 / 1440
        var fades = FadeSteps(halfLife: halfLife, stepMinutes: 15)
        var days = 0.25
        var largestError = 0.0, multiplied = 0
        // A month of evaluations: runs of single steps, gaps of 2–16 steps and of 40, and uses.
        for index in 0..<3_000 {
            let gap = index % 500 == 499 ? -days : index % 97 == 0 ? 40 : index % 11 == 0 ? Double(index % 16 + 1) : 1
            days = Swift.max(0, days + gap * stepDays)
            let expected = HeuristicLaunchModel.fade(days: days, halfLife: halfLife)
            let stepped = fades.fade(days: days)
            if gap >= 1 && gap <= 16 { multiplied += 1 }
            largestError = Swift.max(largestError, abs(stepped - expected) / expected)
        }
        #expect(multiplied > 2_500)
        #expect(largestError < 1e-12, "\(largestError)")
    }
}
