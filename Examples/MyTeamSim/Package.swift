// swift-tools-version:6.0
//
// A team's own package, as it would depend on BackgroundSim: one policy, its tests, and the
// whole bgsim tool with the policy in it (`mysim`). The dependency is by path here; a team would
// use the repository's URL.

import PackageDescription

let package = Package(
    name: "MyTeamSim",
    dependencies: [
        .package(name: "BackgroundSim", path: "../.."),
    ],
    targets: [
        .target(
            name: "UploadPolicy",
            dependencies: [.product(name: "BackgroundSim", package: "BackgroundSim"), .product(name: "SimKernel", package: "BackgroundSim")]
        ),
        .executableTarget(
            name: "mysim",
            dependencies: ["UploadPolicy", .product(name: "BackgroundSimCLI", package: "BackgroundSim")]
        ),
        .testTarget(
            name: "UploadPolicyTests",
            dependencies: ["UploadPolicy", .product(name: "BackgroundSimTesting", package: "BackgroundSim")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
