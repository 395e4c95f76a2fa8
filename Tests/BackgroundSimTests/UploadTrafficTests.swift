@testable import BackgroundSim
import SimKernel
import Testing

@Suite("Upload traffic")
struct UploadTrafficTests {
    func at(day: Int, hour: Double) -> SimInstant { .start + .hours(Double(day) * 24 + hour) }

    @Test("the daily correlation between uploads and real uploads, by hand: days without uploads count as zeros")
    func correlationByHand() throws {
        var traffic = UploadTraffic()
        // Day 0: 2 real + 1 cover; day 1: nothing; day 2: 0 real + 2 cover; day 3: 1 real + 1 cover.
        traffic.record(at: at(day: 0, hour: 1), isCover: false)
        traffic.record(at: at(day: 0, hour: 2), isCover: false)
        traffic.record(at: at(day: 0, hour: 3), isCover: true)
        traffic.record(at: at(day: 2, hour: 1), isCover: true)
        traffic.record(at: at(day: 2, hour: 5), isCover: true)
        traffic.record(at: at(day: 3, hour: 0), isCover: false)
        traffic.record(at: at(day: 3, hour: 23), isCover: true)
        // all = (3, 0, 2, 2), real = (2, 0, 0, 1) over 4 days: means 1.75 and 0.75;
        // covariance sum = 1.25·1.25 + (−1.75)(−0.75) + 0.25(−0.75) + 0.25·0.25 = 2.75;
        // squares: all 1.5625 + 3.0625 + 0.0625 + 0.0625 = 4.75; real 1.5625 + 0.5625 + 0.5625 + 0.0625 = 2.75.
        let expected = 2.75 / (4.75 * 2.75).squareRoot()
        let r = try #require(traffic.correlation(days: 4))
        #expect(abs(r - expected) < 1e-12)
        #expect(traffic.shareOfDaysWithUploads(days: 4) == 0.75)
        #expect(traffic.uploads == 7 && traffic.realUploads == 3)
    }

    @Test("traffic that is all real work correlates exactly 1; counts that never vary give none")
    func limits() throws {
        var real = UploadTraffic()
        for day in 0..<5 { for hour in 0..<(day % 3) { real.record(at: at(day: day, hour: Double(hour)), isCover: false) } }
        #expect(abs(try #require(real.correlation(days: 5)) - 1) < 1e-12)
        var constant = UploadTraffic()
        for day in 0..<5 { constant.record(at: at(day: day, hour: 1), isCover: true); constant.record(at: at(day: day, hour: 2), isCover: true) }
        #expect(constant.correlation(days: 5) == nil)
        #expect(UploadTraffic().correlation(days: 5) == nil)
    }

    @Test("CoverDrop as designed: uploads are the real work (correlation 1); as shipped, cover traffic hides most of it")
    func coverDropPresets() throws {
        let designed = try SimulationRunner.run(scenario: Presets.scenario(named: ReferenceApp.CoverDropName.designed)!, seed: 4, days: 120)
        let shipped = try SimulationRunner.run(scenario: Presets.scenario(named: "coverdrop-shipped")!, seed: 4, days: 120)
        #expect(abs(try #require(designed.work.uploadsRealWorkCorrelation) - 1) < 1e-9)
        #expect(try #require(shipped.work.uploadsRealWorkCorrelation) < 0.5)
    }
}
