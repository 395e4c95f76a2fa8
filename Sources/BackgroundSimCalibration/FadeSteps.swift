import BackgroundSim
import SimKernel

/// The fade (``HeuristicLaunchModel/fade(days:halfLife:)``) at a run of evaluations, for a
/// likelihood that reads it at hundreds of thousands of them: where an evaluation comes a few
/// evaluation steps after the last and the app has not been used between, its fade is the last
/// one times the fade of one step, once per step; elsewhere it is computed afresh.
///
/// 2^(−(d + s) ÷ h) = 2^(−d ÷ h) × 2^(−s ÷ h): the same value but for rounding, which over a
/// month of 15-minute steps without use stays below 10⁻¹² of the value. It saves the
/// exponential that was a fifth of calibrating refresh.
struct FadeSteps {
    private let halfLife: Double
    private let stepDays: Double
    private let stepsPerDay: Double
    private let stepFade: Double
    private var lastDays = -Double.infinity
    private var lastFade = 1.0

    /// Fades for `halfLife` days at evaluations `stepMinutes` apart.
    init(halfLife: Double, stepMinutes: Double) {
        self.halfLife = halfLife
        stepDays = stepMinutes / 1440
        stepsPerDay = 1440 / stepMinutes
        stepFade = HeuristicLaunchModel.fade(days: stepDays, halfLife: halfLife)
    }

    /// The fade `days` after the app's last use; calls come in the evaluations' order.
    mutating func fade(days: Double) -> Double {
        let gap = (days - lastDays) * stepsPerDay
        // Truncation after adding ½ rounds the positive gap to whole steps (no libm call).
        if lastDays > 0, gap > 0.5, gap < Self.longestRun + 0.5 {
            let steps = Int(gap + 0.5)
            if abs(days - lastDays - Double(steps) * stepDays) < 1e-9 {
                for _ in 0..<steps { lastFade *= stepFade }
                lastDays = days
                return lastFade
            }
        }
        lastFade = HeuristicLaunchModel.fade(days: days, halfLife: halfLife)
        lastDays = days
        return lastFade
    }

    /// The most steps between two evaluations bridged by multiplying (beyond them, an
    /// exponential costs less).
    private static let longestRun = 16.0
}
