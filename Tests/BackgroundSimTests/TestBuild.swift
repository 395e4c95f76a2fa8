@testable import BackgroundSim
import Testing

/// Whether the simulation under test is optimised, for tests whose size depends on it.
///
/// A debug build checks every part of the model's invariants after every mutation
/// (`SIMKERNEL_INTERNAL_CHECKS`) and runs about ten times slower than an optimised one. Tests
/// that hold the launch model to its calibration bands simulate hundreds of phone-days each and
/// learn nothing more from the checks than the rest of the suite does: they run only optimised,
/// and CI runs them so (`.ci/run`, the optimised lane). Tests that compare digests run one seed
/// in a debug build and three optimised.
enum TestBuild {
    static let isOptimized = BuildConfiguration.isOptimized

    /// The trait of a test that runs only optimised.
    static let optimizedOnly = Testing.ConditionTrait.enabled(
        if: isOptimized, "a launch model's calibration band over hundreds of simulated days: optimised builds only (CI runs them so)")

    /// The seeds a digest comparison checks: the first in a debug build, three optimised.
    static let digestSeeds: [UInt64] = isOptimized ? [1, 2, 3] : [1]
}
