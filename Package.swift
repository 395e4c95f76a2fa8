// swift-tools-version:6.0
//
// BackgroundSim: a deterministic, fast simulator of how iOS runs an app's background work.
//
// The package has no dependencies beyond the Swift toolchain (the user's requirement), so an iOS
// team can add it to a test target without pulling anything else in. `SimKernel` does not import
// Foundation at all.

import PackageDescription

/// Settings shared by the simulation libraries.
///
/// `SIMKERNEL_INTERNAL_CHECKS` (off by default) verifies internal structure after every mutation,
/// in the manner of swift-collections' `COLLECTIONS_INTERNAL_CHECKS`: the event queue's heap order
/// (O(n) per call) and each part of the iOS model (pending requests, running tasks, assertions,
/// timers, the app's energy, launch evaluation; `+Invariants.swift` beside each). The checks are
/// preconditions, so an optimised build keeps them (and Swift's exclusivity checks); CI runs the
/// kernel's, the model's and the checker's suites so, in a build folder of its own, in minutes
/// where the debug build takes twenty:
///
///     swift test -c release --scratch-path .build-checks -Xswiftc -DSIMKERNEL_INTERNAL_CHECKS -Xswiftc -enable-testing \
///         --filter "SimKernelTests|BackgroundSimTests|BackgroundSimTestingTests"
///
/// The few `assert`s at the parts' boundaries are debug-only; the plain `swift test` runs them.
let simulationSettings: [SwiftSetting] = []

let package = Package(
    name: "BackgroundSim",
    products: [
        .library(name: "SimKernel", targets: ["SimKernel"]),
        .library(name: "BackgroundSim", targets: ["BackgroundSim"]),
        .library(name: "BackgroundSimLab", targets: ["BackgroundSimLab"]),
        .library(name: "BackgroundSimCalibration", targets: ["BackgroundSimCalibration"]),
        .library(name: "BackgroundSimTesting", targets: ["BackgroundSimTesting"]),
        .library(name: "BackgroundSimCLI", targets: ["BackgroundSimCLI"]),
        .library(name: "SimulatedConcurrency", targets: ["SimulatedConcurrency"]),
        .library(name: "SimulatedBackgroundTasks", targets: ["SimulatedBackgroundTasks"]),
        .executable(name: "bgsim", targets: ["bgsim"]),
        .executable(name: "bgsim-bench", targets: ["bgsim-bench"]),
        .executable(name: "bgsim-app-bench", targets: ["bgsim-app-bench"]),
    ],
    targets: [
        .target(
            name: "SimKernel",
            swiftSettings: simulationSettings
        ),
        .target(
            name: "BackgroundSim",
            dependencies: ["SimKernel"],
            swiftSettings: simulationSettings
        ),
        .target(
            name: "BackgroundSimLab",
            dependencies: ["BackgroundSim", "SimKernel"]
        ),
        .target(
            name: "BackgroundSimCalibration",
            dependencies: ["BackgroundSimLab", "BackgroundSim", "SimKernel"]
        ),
        .target(
            name: "BackgroundSimChecking",
            dependencies: ["BackgroundSim", "SimKernel"]
        ),
        .target(
            name: "BackgroundSimTesting",
            dependencies: ["BackgroundSimChecking", "BackgroundSim", "SimKernel"]
        ),
        .target(
            name: "SimulatedConcurrency",
            dependencies: ["SimKernel"]
        ),
        .target(
            name: "SimulatedBackgroundTasks",
            dependencies: ["SimulatedConcurrency", "BackgroundSim", "SimKernel"]
        ),
        .target(
            name: "CommandLineSupport",
            dependencies: ["BackgroundSim"]
        ),
        .target(
            name: "BackgroundSimCLI",
            dependencies: ["BackgroundSim", "BackgroundSimLab", "BackgroundSimCalibration", "BackgroundSimChecking", "SimKernel",
                           "CommandLineSupport"]
        ),
        .executableTarget(
            name: "bgsim",
            dependencies: ["BackgroundSimCLI"]
        ),
        .executableTarget(
            name: "bgsim-bench",
            dependencies: ["BackgroundSim", "BackgroundSimLab", "BackgroundSimCalibration", "BackgroundSimChecking", "SimKernel",
                           "CommandLineSupport"],
            path: "Benchmarks/bgsim-bench"
        ),
        // Apart from bgsim-bench: the app's own code needs FoundationNetworking, which does not
        // link with --static-swift-stdlib (its libcurl), and CI builds bgsim-bench statically.
        .executableTarget(
            name: "bgsim-app-bench",
            dependencies: ["BackgroundSim", "SimulatedBackgroundTasks", "CommandLineSupport"],
            path: "Benchmarks/bgsim-app-bench"
        ),
        .testTarget(
            name: "SimKernelTests",
            dependencies: ["SimKernel"]
        ),
        .testTarget(
            name: "BackgroundSimTests",
            dependencies: ["BackgroundSim", "SimKernel"]
        ),
        .testTarget(
            name: "BackgroundSimLabTests",
            dependencies: ["BackgroundSimLab", "BackgroundSim"]
        ),
        .testTarget(
            name: "BackgroundSimCalibrationTests",
            dependencies: ["BackgroundSimCalibration", "BackgroundSimLab", "BackgroundSim", "SimKernel"]
        ),
        .testTarget(
            name: "BackgroundSimTestingTests",
            dependencies: ["BackgroundSimTesting", "BackgroundSimChecking", "BackgroundSim", "SimKernel"]
        ),
        .testTarget(
            name: "SimulatedConcurrencyTests",
            dependencies: ["SimulatedConcurrency", "SimulatedBackgroundTasks", "BackgroundSim", "BackgroundSimChecking", "SimKernel"]
        ),
        .testTarget(
            name: "ReadmeExampleTests",
            dependencies: ["BackgroundSimTesting"]
        ),
        .testTarget(
            name: "bgsimTests",
            dependencies: ["SimKernel", "BackgroundSim", "BackgroundSimCLI"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
