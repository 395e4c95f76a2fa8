import BackgroundSim
import Testing

/// Every preset's outcome, pinned: the trace digest of a year on seeds 1, 2 and 3.
///
/// A digest covers every event the run fired, with its time, kind and detail, so any change to
/// what a run does changes it. A change here must be deliberate: update the table in the same
/// commit and say in its message which outcomes changed and why.
///
/// The values were recorded with `bgsim run --preset P --days 365 --seed S --format json` before
/// the iOS model was split into parts and its log typed (a refactoring that changes no outcome);
/// the command prints the same digest as ``SimulationRunner``, which this test runs.
@Suite("Preset digests")
struct PresetDigestTests {
    static let pinned: [String: [String]] = [
        "device-only": ["2ae5615a4a056284", "f343e993fb0679ea", "b0eeea1fe288e07e"],
        "probe-refresh": ["33277bed4a67ebee", "2b4434263ca1386a", "34ae151b93805f0f"],
        "probe-processing": ["0f5ba6f487ad8a8c", "c38217b6645232d7", "45dbb304c2f6e98e"],
        "proton-upload": ["127bf592e2d281ca", "61a2081eac040df1", "736f76c128fc1040"],
        "proton-upload-restart": ["efcb8b9dcf9e048e", "25036157e87f694e", "0a78872d9e7789d1"],
        "coverdrop-send": ["1ee11497d4d9fad8", "64e870f799049d08", "0f8bf7b65e10a4d1"],
        "coverdrop-send-forgetful": ["b88f201a992ccf47", "f071d3f0c9babf83", "8042d9b9b0aa96bb"],
        "zashi-sync": ["f7517a18ad8a2c9c", "f4d31ca6e61a88a8", "6482e29a64d057a4"],
        "bgscheduler-demo": ["3ea2c6a844418f5a", "87f5cd057cfd2716", "904ca0f00b30b77b"],
    ]

    @Test("every preset has pinned digests")
    func everyPresetIsPinned() {
        #expect(Set(Presets.all.map(\.name)) == Set(Self.pinned.keys))
    }

    @Test("a year of each preset on seeds 1–3 gives its pinned digest", arguments: Presets.all.map(\.name))
    func pinnedDigest(preset: String) throws {
        let scenario = try #require(Presets.scenario(named: preset))
        let expected = try #require(Self.pinned[preset])
        for (index, seed) in [UInt64(1), 2, 3].enumerated() {
            let result = try SimulationRunner.run(scenario: scenario, seed: seed, days: 365)
            #expect(result.digest.description == expected[index], "\(preset) seed \(seed)")
        }
    }
}
