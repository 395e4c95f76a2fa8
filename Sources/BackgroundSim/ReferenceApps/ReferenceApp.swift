/// A real app whose background work BackgroundSim carries as reference policies — as its
/// design document describes it, as its public code ships it, and through doors it does not
/// use — with the presets that run them, in one value: the built-in registry
/// (``PolicyRegistry/builtIn``) and presets (``Presets/all``) are made from ``all``.
///
/// Each app's folder holds its value (`ProtonDrive.swift`, …), its policies and their
/// parameters; `docs/POLICIES.md` traces every constant to its source.
package struct ReferenceApp: Sendable {
    /// The app's name: "Proton Drive".
    package let name: String
    /// Where its policies come from: design documents, and repositories at a commit.
    package let sources: [String]
    /// Its policies, as scenarios name them.
    package let policies: [PolicyDefinition]
    /// Makes its presets (its policies on its workload). A function, not a value: presets name
    /// their policies through ``PolicyRegistry/builtIn``, which is made from ``all``.
    private let makePresets: @Sendable () -> [Presets.Preset]

    /// Its presets: its policies on its workload.
    package var presets: [Presets.Preset] { makePresets() }

    init(name: String, sources: [String], policies: [PolicyDefinition], presets: @escaping @Sendable () -> [Presets.Preset]) {
        self.name = name
        self.sources = sources
        self.policies = policies
        makePresets = presets
    }

    /// The probes and every reference app, in the order `bgsim presets` lists them.
    package static let all: [ReferenceApp] = [.probes, .protonDrive, .coverDrop, .zashi, .testBGScheduler]

    /// The default user and device running `policy`, allowed `identifiers`: where every
    /// reference preset starts.
    static func scenario(name: String, policy: PolicyConfiguration, identifiers: [String], description: String) -> Scenario {
        var scenario = Scenario()
        scenario.name = name
        scenario.description = description
        scenario.app.policy = policy
        scenario.app.permittedIdentifiers = identifiers
        return scenario
    }
}
