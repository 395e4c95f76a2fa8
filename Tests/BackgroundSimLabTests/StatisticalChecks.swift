import Foundation
import Testing

/// Long statistical checks (Monte Carlo error rates, a procedure's guarantee in repeated
/// trials) run only when `BGSIM_STATISTICAL_TESTS=1`, so that `swift test` stays a few minutes;
/// CI runs them as a named plan:
///
///     BGSIM_STATISTICAL_TESTS=1 swift test --filter "ErrorRateTests|TuningProcedureTests"
extension Trait where Self == ConditionTrait {
    static var statistical: Self {
        .enabled(if: ProcessInfo.processInfo.environment["BGSIM_STATISTICAL_TESTS"] == "1",
                 "a long statistical check: run with BGSIM_STATISTICAL_TESTS=1")
    }
}
