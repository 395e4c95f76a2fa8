@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Log histogram")
struct LogHistogramTests {
    @Test("quantiles are within 2.2 % of the exact ones", arguments: [UInt64(1), 2, 3])
    func quantileAccuracy(seed: UInt64) {
        var stream = RandomStream(seed: seed, label: "test.histogram")
        // Latencies spanning milliseconds to days: log-normal, median 10 min, σ 2.5.
        let distribution = LogNormalDistribution(median: 600, sigma: 2.5)
        var values: [Double] = []
        var histogram = LogHistogram()
        for _ in 0..<20_000 {
            let value = Swift.min(distribution.sample(using: &stream), 1e7)
            values.append(value)
            histogram.record(value)
        }
        values.sort()
        for q in [0.01, 0.1, 0.5, 0.9, 0.99, 0.999] {
            let exact = values[Int((q * Double(values.count)).rounded(.up)) - 1]
            let reported = histogram.quantile(q)
            #expect(abs(reported - exact) / exact <= 0.022, "q \(q): \(reported) vs \(exact)")
        }
        #expect(histogram.quantile(1) == values.last)
        #expect(histogram.count == 20_000)
        #expect(abs(histogram.mean - values.reduce(0, +) / 20_000) < 1e-9 * histogram.mean)
    }

    @Test("bucket bounds tile the range, doubling every 32 buckets")
    func buckets() {
        #expect(LogHistogram.bucket(of: 0) == 0)
        #expect(LogHistogram.bucket(of: 1e-9) == 0)
        #expect(LogHistogram.bucket(of: 1e12) == LogHistogram.bucketCount - 1)
        #expect(LogHistogram.lowerBound(of: 0) == 0x1p-10)
        #expect(LogHistogram.lowerBound(of: 32) == 0x1p-9)
        for index in stride(from: 1, to: LogHistogram.bucketCount - 1, by: 7) {
            let low = LogHistogram.lowerBound(of: index)
            #expect(LogHistogram.bucket(of: low) == index)
            #expect(LogHistogram.bucket(of: low.nextDown) == index - 1)
        }
    }

    @Test("merging equals recording everything in one histogram, in any order")
    func merging() {
        var stream = RandomStream(seed: 9, label: "test.histogram.merge")
        var parts = [LogHistogram(), LogHistogram(), LogHistogram()]
        var whole = LogHistogram()
        for index in 0..<3_000 {
            let value = ExponentialDistribution(mean: 30).sample(using: &stream)
            parts[index % 3].record(value)
            whole.record(value)
        }
        var forward = LogHistogram()
        for part in parts { forward.merge(part) }
        var backward = LogHistogram()
        for part in parts.reversed() { backward.merge(part) }
        #expect(forward.count == whole.count && forward.minimum == whole.minimum && forward.maximum == whole.maximum)
        for q in [0.5, 0.9, 0.99] {
            #expect(forward.quantile(q) == whole.quantile(q))
            #expect(backward.quantile(q) == whole.quantile(q))
        }
    }

    @Test("an empty histogram reports zeros; a single value reports itself")
    func edges() {
        #expect(LogHistogram().quantile(0.5) == 0)
        #expect(LogHistogram().mean == 0)
        var one = LogHistogram()
        one.record(7.25)
        #expect(one.quantile(0.5) == 7.25)
        #expect(one.quantile(0) == 7.25)
        #expect(one.quantile(1) == 7.25)
    }
}
