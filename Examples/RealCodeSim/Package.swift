// swift-tools-version:6.0
//
// A team's background code, written against Apple's BackgroundTasks and UIKit as it ships, run
// under BackgroundSim's simulated iOS with only its imports changed (docs/RUN-YOUR-OWN-CODE.md):
// the services (`MessageSender`, `CoverDropSending`, `ZashiSync`, `PhotoUploads`, `InboxSync`, `FeedRefresh`), their tests,
// and the whole bgsim tool with them (`realsim`). The dependency is by path here; a team would
// use the repository's URL.

import PackageDescription

let package = Package(
    name: "RealCodeSim",
    dependencies: [
        .package(name: "BackgroundSim", path: "../.."),
    ],
    targets: [
        .target(
            name: "MessageSender",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .target(
            name: "CoverDropSending",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .target(
            name: "ZashiSync",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .target(
            name: "PhotoUploads",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .target(
            name: "InboxSync",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .target(
            name: "FeedRefresh",
            dependencies: [.product(name: "SimulatedBackgroundTasks", package: "BackgroundSim"),
                           .product(name: "BackgroundSim", package: "BackgroundSim")]
        ),
        .executableTarget(
            name: "realsim",
            dependencies: ["MessageSender", "CoverDropSending", "ZashiSync", "PhotoUploads", "InboxSync", "FeedRefresh",
                           .product(name: "BackgroundSimCLI", package: "BackgroundSim")]
        ),
        .testTarget(
            name: "MessageSenderTests",
            dependencies: ["MessageSender", "CoverDropSending", "ZashiSync", "PhotoUploads", "InboxSync", "FeedRefresh",
                           .product(name: "BackgroundSimTesting", package: "BackgroundSim"),
                           .product(name: "BackgroundSimLab", package: "BackgroundSim"),
                           .product(name: "SimulatedBackgroundTasks", package: "BackgroundSim")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
