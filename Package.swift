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
/// `SIMKERNEL_INTERNAL_CHECKS` verifies internal structure after every mutation, in the manner of
/// swift-collections' `COLLECTIONS_INTERNAL_CHECKS`: the event queue's heap (O(1) after every
/// operation, the whole heap once every n) and each part of the iOS model (pending requests,
/// running tasks, assertions, timers, the battery and the app's energy, launch evaluation;
/// `+Invariants.swift` beside each). It is on in debug builds, so the README's `swift test` runs
/// every test with every check, and off in release builds, where a checked run is about five
/// times slower. The checks are preconditions: an optimised build given the flag keeps them.
///
///     swift test -c release -Xswiftc -DSIMKERNEL_INTERNAL_CHECKS -Xswiftc -enable-testing --scratch-path .build-checks
let simulationSettings: [SwiftSetting] = [.define("SIMKERNEL_INTERNAL_CHECKS", .when(configuration: .debug))]

/// Settings shared by the test targets.
///
/// In a release build (CI's optimised lane: `swift build --build-tests -c release -Xswiftc
/// -enable-testing`) the tests themselves are compiled without optimisation: what they exercise,
/// the libraries, is optimised as always, and the tests' own code is light. Optimising the
/// 16,000 lines of tests was a fifth of that build: 891 CPU-s with it, 708 without, on 2 cores
/// (2026-12-02); the optimised lane's tests took 107 s without (112 s with, in a CI run).
/// Debug builds (the README's `swift test`) are unchanged. A package that depends on this one
/// builds none of its tests, so the flag never reaches it.
let testSettings: [SwiftSetting] = [.unsafeFlags(["-Onone"], .when(configuration: .release))]

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
        // link with --static-swift-stdlib (its libcurl), and bgsim-bench builds statically.
        .executableTarget(
            name: "bgsim-app-bench",
            dependencies: ["BackgroundSim", "SimulatedBackgroundTasks", "CommandLineSupport"],
            path: "Benchmarks/bgsim-app-bench"
        ),
        .testTarget(
            name: "SimKernelTests",
            dependencies: ["SimKernel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "BackgroundSimTests",
            dependencies: ["BackgroundSim", "SimKernel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "BackgroundSimLabTests",
            dependencies: ["BackgroundSimLab", "BackgroundSim"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "BackgroundSimCalibrationTests",
            dependencies: ["BackgroundSimCalibration", "BackgroundSimLab", "BackgroundSim", "SimKernel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "BackgroundSimTestingTests",
            dependencies: ["BackgroundSimTesting", "BackgroundSimChecking", "BackgroundSim", "SimKernel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "SimulatedConcurrencyTests",
            dependencies: ["SimulatedConcurrency", "SimulatedBackgroundTasks", "BackgroundSim", "BackgroundSimChecking", "SimKernel"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "ReadmeExampleTests",
            dependencies: ["BackgroundSimTesting"],
            swiftSettings: testSettings
        ),
        .testTarget(
            name: "bgsimTests",
            dependencies: ["SimKernel", "BackgroundSim", "BackgroundSimCLI"],
            swiftSettings: testSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
