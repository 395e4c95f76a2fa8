import Foundation
import SimKernel
import Testing

@Suite("Portable math")
struct PortableMathTests {
    /// The distance between two doubles in units in the last place.
    func ulps(_ a: Double, _ b: Double) -> UInt64 {
        if a == b { return 0 }
        func ordered(_ x: Double) -> Int64 {
            let bits = Int64(bitPattern: x.bitPattern)
            return bits < 0 ? Int64.min - bits : bits
        }
        return ordered(a) > ordered(b) ? UInt64(ordered(a) - ordered(b)) : UInt64(ordered(b) - ordered(a))
    }

    @Test("log agrees with the platform's within 1 ulp from 1e-320 to 1e308")
    func logAgainstPlatform() {
        var stream = RandomStream(seed: 1, label: "test.log")
        var worst: UInt64 = 0
        var checked = 0
        // Log-uniform over the whole range, including subnormals, plus values near 1.
        for _ in 0..<100_000 {
            let x = Foundation.exp(stream.unit() * 1445 - 737)  // about 1e-320 ... 1e308
            worst = max(worst, ulps(PortableMath.log(x), Foundation.log(x)))
            let nearOne = 1 + (stream.unit() - 0.5) * 1e-3
            worst = max(worst, ulps(PortableMath.log(nearOne), Foundation.log(nearOne)))
            checked += 2
        }
        #expect(worst <= 1, "worst difference \(worst) ulps over \(checked) values")
    }

    @Test("exp agrees with the platform's within 1 ulp from -745 to 709")
    func expAgainstPlatform() {
        var stream = RandomStream(seed: 2, label: "test.exp")
        var worst: UInt64 = 0
        for _ in 0..<100_000 {
            let x = stream.unit() * 1454 - 745
            worst = max(worst, ulps(PortableMath.exp(x), Foundation.exp(x)))
            let small = (stream.unit() - 0.5) * 2
            worst = max(worst, ulps(PortableMath.exp(small), Foundation.exp(small)))
        }
        #expect(worst <= 1, "worst difference \(worst) ulps")
    }

    @Test("special values follow IEEE conventions")
    func specialValues() {
        #expect(PortableMath.log(0) == -.infinity)
        #expect(PortableMath.log(-0.0) == -.infinity)
        #expect(PortableMath.log(-1).isNaN)
        #expect(PortableMath.log(.nan).isNaN)
        #expect(PortableMath.log(.infinity) == .infinity)
        #expect(PortableMath.log(1) == 0)
        #expect(PortableMath.exp(0) == 1)
        #expect(PortableMath.exp(.infinity) == .infinity)
        #expect(PortableMath.exp(-.infinity) == 0)
        #expect(PortableMath.exp(.nan).isNaN)
        #expect(PortableMath.exp(710) == .infinity)
        #expect(PortableMath.exp(-746) == 0)
        #expect(PortableMath.exp(709.78).isFinite)
        #expect(PortableMath.pow(2, 10) == 1024)
        #expect(abs(PortableMath.pow(9, 0.5) - 3) < 1e-15)
    }

    @Test("golden values are pinned bit for bit")
    func golden() {
        // fdlibm's results. log(2) and log(10) are correctly rounded; fdlibm's exp(1) is famously
        // 1 ulp above e (Java's StrictMath.exp(1) = 2.7182818284590455, also fdlibm), which
        // shows this is a faithful transcription rather than a call to the platform.
        #expect(PortableMath.log(2).bitPattern == 0x3FE6_2E42_FEFA_39EF)
        #expect(PortableMath.log(10).bitPattern == 0x4002_6BB1_BBB5_5516)
        #expect(PortableMath.exp(1) == 2.718_281_828_459_045_5)
        #expect(PortableMath.exp(1).bitPattern == 0x4005_BF0A_8B14_576A)
        #expect(PortableMath.exp(-1).bitPattern == 0x3FD7_8B56_362C_EF38)
    }
}
