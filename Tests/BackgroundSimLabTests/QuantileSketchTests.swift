@testable import BackgroundSimLab
import SimKernel
import Testing

@Suite("Quantiles from a histogram, and Poisson bootstrap weights")
struct QuantileSketchTests {
    @Test("a sketch's quantiles are within 1/128 of the exact sample quantiles, for samples spread over ten powers of ten (seeds 1–20)")
    func withinTheRelativeError() {
        for seed in UInt64(1)...20 {
            var stream = RandomStream(seed: seed, label: StreamLabel("test.sketch"))
            var values: [Double] = []
            var sketch = QuantileSketch()
            for _ in 0..<(50 + Int(seed) * 37) {
                // Log-uniform from 10⁻³ to 10⁷, and a few exact zeros.
                let value = stream.chance(0.05) ? 0 : PortableMath.exp((stream.unit() * 10 - 3) * 2.302585092994046)
                values.append(value)
                sketch.add(value)
            }
            values.sort()
            for q in [0, 0.025, 0.1, 0.5, 0.9, 0.975, 1] {
                let exact = Quantile.interpolated(values, q)!, read = sketch.quantile(q)!
                #expect(abs(read - exact) <= exact * QuantileSketch.relativeError + QuantileSketch.smallestValue,
                        "seed \(seed), q \(q): exact \(exact), sketch \(read)")
            }
        }
    }

    @Test("whole minutes under 256 and quarter hours under 2,048 min come back exact: every bin then holds one value, which it stands for")
    func oneValuePerBinIsExact() {
        let minutes: [Double] = (0..<400).map { index in Double((index * 7_919) % 256) }
        let quarterHours: [Double] = (0..<300).map { index in Double((index * 7_919) % 136) * 15 }
        let values = minutes + quarterHours
        var sketch = QuantileSketch()
        for value in values { sketch.add(value) }
        let sorted = values.sorted()
        for q in [0.1, 0.25, 0.5, 0.9] { #expect(sketch.quantile(q) == Quantile.interpolated(sorted, q), "q \(q)") }
    }

    @Test("a value added with weight 3 reads as the same value added three times; an empty sketch has no quantile")
    func weightsRepeatValues() {
        var weighted = QuantileSketch(), repeated = QuantileSketch()
        for (value, weight) in [(2.5, 3.0), (40.0, 1), (0.0, 2), (900.0, 4)] {
            weighted.add(value, weight: weight)
            for _ in 0..<Int(weight) { repeated.add(value) }
        }
        #expect(weighted == repeated)
        #expect(weighted.totalWeight == 10)
        // Ranks 0–1 are 0, 2–4 are 2.5, 5 is 40, 6–9 are 900; the median sits between ranks 4 and 5.
        #expect(weighted.quantile(0.5) == 2.5 + (40 - 2.5) * 0.5)
        #expect(weighted.quantile(0) == 0 && weighted.quantile(1) == 900)
        #expect(QuantileSketch().quantile(0.5) == nil)
    }

    @Test("bins: a power of two starts a bin, every bin is 1/128 of its power of two wide, and values below 2⁻¹⁰ share the zero bin")
    func bins() {
        #expect(QuantileSketch.bin(of: 1) == 0)
        #expect(QuantileSketch.bin(of: 2) == 128)
        #expect(QuantileSketch.bin(of: 0.5) == -128)
        #expect(QuantileSketch.bin(of: 1.0 + 1.0 / 128) == 1)
        #expect(QuantileSketch.bin(of: 0x1p-10) == -1_280)
        #expect(QuantileSketch.bin(of: 0x1p-10.nextDown) == nil && QuantileSketch.bin(of: 0) == nil)
        for bin in [-1_279, -1_000, -129, -1, 0, 1, 127, 128, 3_000] {
            let edge = QuantileSketch.lowerEdge(ofBin: bin)
            #expect(QuantileSketch.bin(of: edge) == bin, "bin \(bin)")
            #expect(QuantileSketch.bin(of: edge.nextDown) == bin - 1, "bin \(bin)")
        }
    }

    @Test("Poisson bootstrap weights have mean 1 and variance 1 and P(0) = e⁻¹ (400,000 draws, seed 7; tolerances 5 standard errors)")
    func poissonWeights() {
        var stream = RandomStream(seed: 7, label: StreamLabel("test.poisson"))
        let count = 400_000
        var sum = 0.0, sumOfSquares = 0.0, zeros = 0
        for _ in 0..<count {
            let weight = Double(Bootstrap.poissonWeight(using: &stream))
            sum += weight
            sumOfSquares += weight * weight
            if weight == 0 { zeros += 1 }
        }
        let mean = sum / Double(count), variance = sumOfSquares / Double(count) - mean * mean
        // Standard errors: √(1/n) for the mean, √(μ₄ − σ⁴)/√n = √3/√n for the variance, √(p(1 − p)/n) for P(0).
        #expect(abs(mean - 1) < 5 * (1 / Double(count)).squareRoot(), "mean \(mean)")
        #expect(abs(variance - 1) < 5 * (3 / Double(count)).squareRoot(), "variance \(variance)")
        let p0 = 0.36787944117144233
        #expect(abs(Double(zeros) / Double(count) - p0) < 5 * (p0 * (1 - p0) / Double(count)).squareRoot(), "P(0) \(Double(zeros) / Double(count))")
    }
}
