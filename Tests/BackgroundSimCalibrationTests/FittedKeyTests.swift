import BackgroundSim
@testable import BackgroundSimCalibration
import Testing

@Suite("The numbers calibration fits")
struct FittedKeyTests {
    @Test("every fitted number is a declared scenario number, the kinds fit theirs in the optimiser's order, and the fit keeps each within its declared valid range (above 0 on a logarithm)")
    func declaredAndInRange() throws {
        #expect(FittedKey.keys(of: .refresh) == [.refreshBasePerDay, .refreshPerAppSession, .refreshFadeHalfLifeDays])
        #expect(FittedKey.keys(of: .processing)
                == [.processingChargingChancePerEvaluation, .processingBatteryChancePerEvaluation, .processingFadeHalfLifeDays])
        for key in FittedKey.allCases {
            let field = try #require(key.field, "\(key.rawValue) has no NumberField in HeuristicLaunchParameters")
            for coordinate in [-1e6, -30, 0, 30, 1e6] {
                let value = LaunchFit.Coordinates.value(key, at: coordinate)
                #expect(field.valid.contains(value), "\(key.rawValue) at \(coordinate): \(value)")
                if !key.isChance { #expect(value > 0, "\(key.rawValue) at \(coordinate) is not positive") }
            }
            // Setting a value through the key changes that number and no other.
            var parameters = HeuristicLaunchParameters()
            parameters[keyPath: key.keyPath] = 0.123
            #expect(field.value(in: parameters) == 0.123)
            let changed = HeuristicLaunchParameters.numberFields.filter { $0.value(in: parameters) != $0.value(in: HeuristicLaunchParameters()) }
            #expect(changed.map(\.key) == [key.rawValue])
        }
    }
}
